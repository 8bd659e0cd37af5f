// The texts of the mail the contract's life sends. Plain text; `{{signing_link}}` and `{{code}}`
// are filled in when a message is sent (lib/services/mail/enqueue-email.ts says why).

/**
 * Text someone wrote (a contract's or a person's name, a message, a reason, a note), made safe to
 * store in a body and a subject: the outbox fills in `{{…}}` when sending (enqueue-email.ts), so
 * typed braces would otherwise take the recipient's link or code, or leave a mail that cannot be
 * built; and mail readers decode `=?charset?B?…?=` in a subject (RFC 2047), which would show what
 * the names' rules refuse (a direction override, a line that reads as another header).
 */
const inert = (text: string) => text.replaceAll("{{", "{ {").replaceAll("}}", "} }").replaceAll("=?", "= ?");

/** Every text among a message's values made inert; each message reads its values through this. */
function inertValues<T extends object>(values: T): T {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, typeof value === "string" ? inert(value) : value])) as T;
}

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

export function invitationMail(values: TInvitationText) {
  const { participantName, senderName, contractName, signatory, subject, message, expiresAt } = inertValues(values);
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

export function twoStepCodeMail(values: { participantName: string; contractName: string }) {
  const { participantName, contractName } = inertValues(values);
  return {
    subject: `Your code for "${contractName}"`,
    body: [
      `Hello ${participantName},`,
      "",
      `Your code to sign, decline or hand on "${contractName}" is: {{code}}`,
      "",
      "It works for 10 minutes. If you did not ask for it, ignore this message.",
    ].join("\n"),
  };
}

export function signedMail(values: { participantName: string; contractName: string }) {
  const { participantName, contractName } = inertValues(values);
  return {
    subject: `Signed: ${contractName}`,
    body: [`Hello ${participantName},`, "", `Every signatory has signed "${contractName}". The contract is now signed.`].join("\n"),
  };
}

export function declinedMail(values: { participantName: string; contractName: string; declinedBy: string; reason: string }) {
  const { participantName, contractName, declinedBy, reason } = inertValues(values);
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
export function twoStepLockMail(values: { staffName: string; participantName: string; contractName: string; wrongTries: number }) {
  const { staffName, participantName, contractName, wrongTries } = inertValues(values);
  return {
    subject: `Signing locked for ${participantName}: ${contractName}`,
    body: [
      `Hello ${staffName},`,
      "",
      `${wrongTries} wrong codes were typed with ${participantName}'s signing link for "${contractName}", so that link can no longer be used to sign, decline or hand on.`,
      "",
      `If ${participantName} was simply having trouble, send the invitation again from the contract's page: it gives them a new link and new tries, and the old link stops working.`,
      "If they did not type those codes, someone else may have their link: check with them before sending a new one.",
    ].join("\n"),
  };
}

/** An automatic reminder to a signatory who has not decided yet (lib/services/reminders). */
export function reminderMail(values: { participantName: string; contractName: string; expiresAt: Date | null }) {
  const { participantName, contractName, expiresAt } = inertValues(values);
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
export function expiryWarningMail(values: { participantName: string; contractName: string; expiresAt: Date }) {
  const { participantName, contractName, expiresAt } = inertValues(values);
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

export function sealedMail(values: { participantName: string; contractName: string; fileName: string; verifyUrl: string }) {
  const { participantName, contractName, fileName, verifyUrl } = inertValues(values);
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
export function withdrawnMail(values: { participantName: string; contractName: string; withdrawnBy: string; reason: string }) {
  const { participantName, contractName, withdrawnBy, reason } = inertValues(values);
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

/** Where staff open the contract, when the mail knows this deployment's address. */
const contractPage = (linkOrigin: string, contractId: number) => (/^https?:\/\/[^/]+$/.test(linkOrigin) ? [``, `Open the contract: ${linkOrigin}/contracts/${contractId}`] : []);

/** To the contract's owner, once per date, some days before a notice deadline or an end date (docs/lifecycle.md). */
export function lifecycleWarningMail(values: { ownerName: string; contractName: string; contractId: number; kind: "notice" | "end"; date: string; linkOrigin: string }) {
  const { ownerName, contractName: name, contractId, kind, date, linkOrigin } = inertValues(values);
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
export function contractReminderMail(values: { recipientName: string; contractName: string; contractId: number; note: string; date: string; setBy: string | null; linkOrigin: string }) {
  const { recipientName, contractName: name, contractId, note, date, setBy, linkOrigin } = inertValues(values);
  return {
    subject: `Reminder: ${name}`,
    body: [
      `Hello ${recipientName},`,
      "",
      `${setBy ? `${setBy} set` : "You have"} a reminder for ${date} on "${name}" (contract ${contractId}):`,
      "",
      note,
      ...contractPage(linkOrigin, contractId),
    ].join("\n"),
  };
}
