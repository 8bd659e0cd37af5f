// The texts of the mail the contract's life sends. Plain text; `{{signing_link}}` and `{{code}}`
// are filled in when a message is sent (lib/services/mail/enqueue-email.ts says why).

export interface TInvitationText {
  participantName: string;
  senderName: string;
  contractName: string;
  signatory: boolean;
  subject: string | undefined;
  message: string | undefined;
  expiresAt: Date;
}

function dateWords(time: Date): string {
  return time.toISOString().slice(0, 10);
}

export function invitationMail({ participantName, senderName, contractName, signatory, subject, message, expiresAt }: TInvitationText) {
  const ask = signatory ? "to read and sign" : "to read";
  return {
    subject: subject ?? (signatory ? `Please sign: ${contractName}` : `For your information: ${contractName}`),
    body: [
      `Hello ${participantName},`,
      "",
      `${senderName} has sent you the contract "${contractName}" ${ask}.`,
      ...(message ? ["", message] : []),
      "",
      `Open the contract: {{signing_link}}`,
      "",
      `This link is yours alone; please do not forward it. It works until ${dateWords(expiresAt)} or until the contract is signed or declined.`,
    ].join("\n"),
  };
}

export function twoStepCodeMail({ participantName, contractName }: { participantName: string; contractName: string }) {
  return {
    subject: `Your code for "${contractName}"`,
    body: [
      `Hello ${participantName},`,
      "",
      `Your code to sign or decline "${contractName}" is: {{code}}`,
      "",
      "It works for 10 minutes. If you did not ask for it, ignore this message.",
    ].join("\n"),
  };
}

export function signedMail({ participantName, contractName }: { participantName: string; contractName: string }) {
  return {
    subject: `Signed: ${contractName}`,
    body: [`Hello ${participantName},`, "", `Every signatory has signed "${contractName}". The contract is now signed.`].join("\n"),
  };
}

export function declinedMail({ participantName, contractName, declinedBy, reason }: { participantName: string; contractName: string; declinedBy: string; reason: string }) {
  return {
    subject: `Declined: ${contractName}`,
    body: [
      `Hello ${participantName},`,
      "",
      `${declinedBy} declined "${contractName}". The contract will not be signed.`,
      ...(reason ? ["", `Their reason: ${reason}`] : []),
    ].join("\n"),
  };
}

/** To the contract's organizer (else its creator) when wrong codes have locked a participant's link. */
export function twoStepLockMail({ staffName, participantName, contractName, wrongTries }: { staffName: string; participantName: string; contractName: string; wrongTries: number }) {
  return {
    subject: `Signing locked for ${participantName}: ${contractName}`,
    body: [
      `Hello ${staffName},`,
      "",
      `${wrongTries} wrong codes were typed with ${participantName}'s signing link for "${contractName}", so that link can no longer be used to sign or decline.`,
      "",
      `If ${participantName} was simply having trouble, send the invitation again from the contract's page: it gives them a new link and new tries, and the old link stops working.`,
      "If they did not type those codes, someone else may have their link: check with them before sending a new one.",
    ].join("\n"),
  };
}

/** An automatic reminder to a signatory who has not decided yet (lib/services/reminders). */
export function reminderMail({ participantName, contractName, expiresAt }: { participantName: string; contractName: string; expiresAt: Date | null }) {
  return {
    subject: `Reminder: please sign ${contractName}`,
    body: [
      `Hello ${participantName},`,
      "",
      `"${contractName}" is still waiting for your signature.`,
      "",
      `Open the contract: {{signing_link}}`,
      ...(expiresAt ? ["", `It can be signed until ${dateWords(expiresAt)}.`] : []),
    ].join("\n"),
  };
}

/** Sent once, a few days before the signing period ends, to a signatory who has not decided yet. */
export function expiryWarningMail({ participantName, contractName, expiresAt }: { participantName: string; contractName: string; expiresAt: Date }) {
  return {
    subject: `Signing closes on ${dateWords(expiresAt)}: ${contractName}`,
    body: [
      `Hello ${participantName},`,
      "",
      `"${contractName}" can be signed only until ${dateWords(expiresAt)}, and is still waiting for your signature.`,
      "",
      `Open the contract: {{signing_link}}`,
    ].join("\n"),
  };
}

export function sealedMail({ participantName, contractName, fileName, verifyUrl }: { participantName: string; contractName: string; fileName: string; verifyUrl: string }) {
  return {
    subject: `Your signed copy: ${contractName}`,
    body: [
      `Hello ${participantName},`,
      "",
      `"${contractName}" is signed by everyone. Your copy is attached (${fileName}): the contract, its attachments' fingerprints and a completion certificate, sealed with a digital signature.`,
      "",
      `Anyone can check that a copy is this one, unchanged: ${verifyUrl}`,
    ].join("\n"),
  };
}

/** To everyone who was invited, once, when staff withdraw a pending contract. */
export function withdrawnMail({ participantName, contractName, withdrawnBy, reason }: { participantName: string; contractName: string; withdrawnBy: string; reason: string }) {
  return {
    subject: `Withdrawn: ${contractName}`,
    body: [
      `Hello ${participantName},`,
      "",
      `${withdrawnBy} has withdrawn "${contractName}". It will not be signed, and the link you were sent no longer works.`,
      ...(reason ? ["", `Their reason: ${reason}`] : []),
      "",
      "There is nothing you need to do.",
    ].join("\n"),
  };
}

/** Text staff wrote, made safe to store in a body: the outbox fills in `{{…}}` when sending (enqueue-email.ts). */
const inert = (text: string) => text.replaceAll("{{", "{ {").replaceAll("}}", "} }");

/** Where staff open the contract, when the mail knows this deployment's address. */
const contractPage = (linkOrigin: string, contractId: number) => (/^https?:\/\/[^/]+$/.test(linkOrigin) ? [``, `Open the contract: ${linkOrigin}/contracts/${contractId}`] : []);

/** To the contract's owner, once per date, some days before a notice deadline or an end date (docs/lifecycle.md). */
export function lifecycleWarningMail({ ownerName, contractName, contractId, kind, date, linkOrigin }: { ownerName: string; contractName: string; contractId: number; kind: "notice" | "end"; date: string; linkOrigin: string }) {
  const name = inert(contractName);
  return kind === "notice"
    ? {
        subject: `Notice deadline ${date}: ${name}`,
        body: [
          `Hello ${ownerName},`,
          "",
          `The last day to give notice on "${name}" (contract ${contractId}) is ${date}. Without notice by then, it renews for another period.`,
          ...contractPage(linkOrigin, contractId),
        ].join("\n"),
      }
    : {
        subject: `Ends ${date}: ${name}`,
        body: [`Hello ${ownerName},`, "", `"${name}" (contract ${contractId}) ends on ${date}: that is its last day in force.`, ...contractPage(linkOrigin, contractId)].join("\n"),
      };
}

/** An internal reminder staff set on a contract, to its recipient on its date. */
export function contractReminderMail({ recipientName, contractName, contractId, note, date, setBy, linkOrigin }: { recipientName: string; contractName: string; contractId: number; note: string; date: string; setBy: string | null; linkOrigin: string }) {
  const name = inert(contractName);
  return {
    subject: `Reminder: ${name}`,
    body: [
      `Hello ${recipientName},`,
      "",
      `${setBy ? `${setBy} set` : "You have"} a reminder for ${date} on "${name}" (contract ${contractId}):`,
      "",
      inert(note),
      ...contractPage(linkOrigin, contractId),
    ].join("\n"),
  };
}
