// What a participant does through their signing link (docs/api.md "Publishing and signing"): see the
// contract, ask for an e-mail code, sign or decline. No staff session: the link's token is the
// credential, looked up by its hash, and dead once the contract is no longer pending.
import type { PrismaClient, Tx } from "@/lib/db";
import type { TAuditActor } from "@/lib/domain/actor";
import { isFullySigned } from "@/lib/domain/completion";
import { DomainError } from "@/lib/domain/errors";
import { SUPPORTED_SIGN_METHODS } from "@/lib/domain/publish-readiness";
import { isWellFormedSigningToken, newNonce, sameCode, signingTokenHash, twoStepCode } from "@/lib/domain/signing";
import { locksOut, resendAfterMs, TWO_STEP_CODE } from "@/lib/domain/two-step";
import { isTheirTurn, openStage } from "@/lib/domain/signing-order";
import type { Participant } from "@/lib/generated/prisma/client";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { enqueueEmail } from "@/lib/services/mail/enqueue-email";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { declinedMail, signedMail, twoStepCodeMail, twoStepLockMail } from "@/lib/services/mail/messages";
import { queueSeal } from "@/lib/services/seal/queue-seal";
import { sealQueued } from "@/lib/services/seal/seal-wakeup";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";
import { startOpenStage } from "@/lib/services/signing/start-open-stage";


const DEAD_LINK = "This signing link does not work (any more): the contract may have been signed, declined, withdrawn or expired.";

async function findByToken(db: Tx, token: string) {
  if (!isWellFormedSigningToken(token)) throw new DomainError("resource_not_found", DEAD_LINK);
  const participant = await db.participant.findUnique({
    where: { signingTokenHash: signingTokenHash(token) },
    include: { party: { include: { contract: true } } },
  });
  if (!participant || participant.party.contract.state !== "pending") throw new DomainError("resource_not_found", DEAD_LINK);
  return { participant, party: participant.party, contract: participant.party.contract };
}

/** Whether the link opens a page: a well-formed token of a participant whose contract is pending. Counts nothing. */
export async function isLiveSigningLink({ db, token }: { db: Tx; token: string }): Promise<boolean> {
  try {
    await findByToken(db, token);
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.key === "resource_not_found") return false;
    throw error;
  }
}

/** Locks the contract, then finds the link's participant again: every decision on it queues here. */
export async function lockByToken(tx: Tx, token: string) {
  const first = await findByToken(tx, token);
  await tx.$queryRaw`SELECT id FROM contracts WHERE id = ${first.contract.id} FOR UPDATE`;
  return findByToken(tx, token);
}

/** The contract's signatories as the signing order reads them. */
async function stageParticipants(tx: Tx, contractId: number) {
  return tx.participant.findMany({ where: { party: { contractId } }, select: { signatory: true, signOrder: true, signState: true } });
}

/**
 * 409 `not_your_turn` for a signatory of an ordered contract whose stage has not opened: the order
 * holds where the decision is made, whoever holds the link and whenever the mail went out.
 */
async function assertTheirTurn(tx: Tx, contract: { id: number; signingOrder: "parallel" | "ordered" }, participant: Participant): Promise<void> {
  if (!isTheirTurn(contract.signingOrder, await stageParticipants(tx, contract.id), participant)) {
    throw new DomainError("not_your_turn", "It is not your turn yet: this contract is signed in order, and the people before you have not all signed. You will get an e-mail when it is your turn.");
  }
}

export interface TSigningView {
  contract: { id: number; name: string; state: string; expiresAt: Date | null };
  you: Pick<Participant, "id" | "name" | "email" | "signatory" | "signMethod" | "twoStepMethod" | "signState" | "signOrder"> & {
    partyName: string;
    signMethodSupported: boolean;
    twoStepLocked: boolean;
    /** False while an ordered contract's earlier stages have not all signed: the page waits. */
    yourTurn: boolean;
    /** The signatory may hand their signature on (the contract allows it, a company's signatory, not decided). */
    canDelegate: boolean;
  };
  /** The stage signing now on an ordered contract; null on a parallel one. */
  openStage: number | null;
  parties: { name: string; myParty: boolean; participants: { name: string; title: string; signatory: boolean; signState: string }[] }[];
  dataFields: { name: string; value: string }[];
}

/**
 * What the signing page shows. Counts the visit (`visits`, first and last visit) and marks an
 * e-mailed invitation `opened`.
 */
export async function openSigningLink({ db, token }: { db: PrismaClient; token: string }): Promise<TSigningView> {
  return db.$transaction(async (tx: Tx) => {
    const { participant, party, contract } = await findByToken(tx, token);
    const now = new Date();
    await tx.participant.update({
      where: { id: participant.id },
      data: {
        visits: { increment: 1 },
        lastVisitedAt: now,
        ...(participant.firstVisitedAt ? {} : { firstVisitedAt: now }),
        ...(participant.deliveryStatus === "pending" || participant.deliveryStatus === "success" ? { deliveryStatus: "opened" } : {}),
      },
    });
    const parties = await tx.party.findMany({
      where: { contractId: contract.id },
      orderBy: { id: "asc" },
      select: { name: true, myParty: true, participants: { orderBy: { id: "asc" }, select: { name: true, title: true, signatory: true, signState: true, signOrder: true } } },
    });
    const everyone = parties.flatMap((p) => p.participants);
    const dataFields = await tx.contractDataField.findMany({ where: { contractId: contract.id }, orderBy: { id: "asc" }, select: { name: true, value: true } });
    return {
      contract: { id: contract.id, name: contract.name, state: contract.state, expiresAt: contract.signingPeriodExpiresAt },
      you: {
        id: participant.id,
        name: participant.name,
        email: participant.email,
        signatory: participant.signatory,
        signMethod: participant.signMethod,
        twoStepMethod: participant.twoStepMethod,
        signState: participant.signState,
        partyName: party.name,
        signMethodSupported: SUPPORTED_SIGN_METHODS.includes(participant.signMethod) && participant.twoStepMethod !== "sms",
        twoStepLocked: participant.twoStepMethod === "email" && participant.twoStepLockedAt !== null,
        signOrder: participant.signOrder,
        yourTurn: isTheirTurn(contract.signingOrder, everyone, participant),
        canDelegate: contract.delegationAllowed && party.type === "company" && participant.signatory && participant.signState === "undecided",
      },
      openStage: openStage(contract.signingOrder, everyone),
      parties,
      dataFields,
    };
  });
}

/** E-mails a fresh six-digit code to a participant whose two-step method is e-mail. */
export async function sendTwoStepCode({ db, token, linkOrigin }: { db: PrismaClient; token: string; linkOrigin: string }): Promise<{ sentTo: string }> {
  const result = await db.$transaction(async (tx: Tx) => {
    const { participant, contract } = await lockByToken(tx, token);
    if (participant.twoStepMethod !== "email") {
      throw new DomainError("validation_failed", "This participant signs without an e-mailed code.", { parameterProblems: { two_step_authentication_method: [`is ${participant.twoStepMethod}`] } });
    }
    if (participant.signState !== "undecided") throw new DomainError("already_decided", `You have already ${participant.signState}.`);
    await assertTheirTurn(tx, contract, participant);
    if (participant.twoStepLockedAt !== null) throw lockedError();
    const now = Date.now();
    // Each code waits longer than the one before (30 s, 60 s, 120 s, … up to an hour): the issue
    // time is kept as the expiry less the lifetime.
    const issuedAt = participant.twoStepCodeExpiresAt ? participant.twoStepCodeExpiresAt.getTime() - TWO_STEP_CODE.lifetimeMs : null;
    const pause = resendAfterMs(participant.twoStepCodeRequests);
    if (issuedAt !== null && now - issuedAt < pause) {
      const wait = Math.ceil((pause - (now - issuedAt)) / 1000);
      throw new DomainError("rate_limited", `A code was sent a short while ago; you can ask for another in ${waitWords(wait)}.`, { headers: { "Retry-After": String(wait) } });
    }
    await tx.participant.update({
      where: { id: participant.id },
      data: { twoStepCodeNonce: newNonce(), twoStepCodeExpiresAt: new Date(now + TWO_STEP_CODE.lifetimeMs), twoStepCodeAttempts: 0, twoStepCodeRequests: { increment: 1 } },
    });
    const mail = twoStepCodeMail({ participantName: participant.name, contractName: contract.name });
    await enqueueEmail({ db: tx, kind: "two_step_code", contractId: contract.id, participantId: participant.id, to: participant.email, linkOrigin, ...mail });
    return { sentTo: participant.email };
  });
  mailQueued();
  return result;
}

function lockedError(): DomainError {
  return new DomainError(
    "two_step_locked",
    "Too many wrong codes were typed with this link, so it can no longer be used to sign or decline. The contract's owner has been told: ask them to send you a new invitation, which comes with a new link.",
  );
}

function waitWords(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * One more wrong code: counted on the code, on the link and in all. At the limit the participant is
 * locked out of signing by code, the code dies, and the staff are told: an audit event (and so a
 * webhook) and an e-mail to the contract's organizer, else its creator.
 */
async function countWrongCode(
  tx: Tx,
  participant: Participant,
  contract: { id: number; name: string; createdById: number | null },
  linkOrigin: string,
): Promise<DomainError> {
  const wrongTries = participant.twoStepWrongTries + 1;
  const wrongTriesTotal = participant.twoStepWrongTriesTotal + 1;
  const locked = locksOut(wrongTries, wrongTriesTotal);
  const now = new Date();
  await tx.participant.update({
    where: { id: participant.id },
    data: {
      twoStepCodeAttempts: { increment: 1 },
      twoStepWrongTries: wrongTries,
      twoStepWrongTriesTotal: wrongTriesTotal,
      ...(locked ? { twoStepLockedAt: now, twoStepCodeNonce: null, twoStepCodeExpiresAt: null } : {}),
    },
  });
  if (!locked) {
    const left = TWO_STEP_CODE.lockAfterWrongTries - wrongTries;
    const message = `The code is wrong. Check the latest e-mail and type its six digits; ${left === 1 ? "1 more wrong try locks" : `${left} more wrong tries lock`} this link.`;
    return new DomainError("two_step_code_invalid", message, { parameterProblems: { code: [message] } });
  }
  await writeAuditEvent({
    db: tx,
    actor: { kind: "signer", participantId: participant.id, name: participant.name, email: participant.email },
    action: "participant.two_step_lock",
    entityType: "participant",
    entityId: participant.id,
    contractId: contract.id,
    before: { two_step_locked: false },
    after: { two_step_locked: true, two_step_wrong_tries: wrongTries },
  });
  const staff =
    (await tx.participant.findFirst({ where: { party: { contractId: contract.id, myParty: true }, organizer: true, email: { not: "" } }, select: { name: true, email: true } })) ??
    (contract.createdById === null ? null : await tx.user.findUnique({ where: { id: contract.createdById }, select: { name: true, email: true } }));
  if (staff) {
    const mail = twoStepLockMail({ staffName: staff.name, participantName: participant.name, contractName: contract.name, wrongTries });
    await enqueueEmail({ db: tx, kind: "two_step_lock", contractId: contract.id, participantId: null, to: staff.email, linkOrigin, ...mail });
  }
  return lockedError();
}

export type TDecision = { kind: "sign"; fullName: string; code?: string | undefined } | { kind: "decline"; reason: string; code?: string | undefined };

function normalName(name: string): string {
  return name.normalize("NFKC").trim().replace(/\s+/g, " ").toLocaleLowerCase();
}

/**
 * Signs or declines. The contract row is locked first, so two signatories deciding at the same
 * instant queue: the last signature makes the contract `signed` exactly once, and a decline and a
 * signature cannot both win. A wrong code is counted even though the request fails.
 */
export async function decideByLink({
  db,
  token,
  decision,
  linkOrigin,
  client,
}: {
  db: PrismaClient;
  token: string;
  decision: TDecision;
  linkOrigin: string;
  /** Where the decision came from (the front door's client address, the User-Agent), for the completion certificate. */
  client?: { ip: string; userAgent: string };
}): Promise<{ contractState: string }> {
  const outcome = await db.$transaction(async (tx: Tx) => {
    const { participant, contract } = await lockByToken(tx, token);
    if (!participant.signatory) throw new DomainError("not_a_signatory", "You receive this contract to read; only its signatories sign or decline.");
    if (participant.signState !== "undecided") throw new DomainError("already_decided", `You have already ${participant.signState}.`);
    await assertTheirTurn(tx, contract, participant);
    if (decision.kind === "sign" && !SUPPORTED_SIGN_METHODS.includes(participant.signMethod)) {
      throw new DomainError("sign_method_unavailable", `Signing with ${participant.signMethod} is not available here; ask the contract's owner to change your sign method.`);
    }
    if (participant.twoStepMethod === "sms") {
      throw new DomainError("sign_method_unavailable", "Two-step authentication by SMS is not available here; ask the contract's owner to change it.");
    }
    if (participant.twoStepMethod === "email") {
      if (participant.twoStepLockedAt !== null) throw lockedError();
      const secret = await loadSigningSecret(tx);
      const live = participant.twoStepCodeNonce !== null && participant.twoStepCodeExpiresAt !== null && participant.twoStepCodeExpiresAt.getTime() > Date.now() && participant.twoStepCodeAttempts < TWO_STEP_CODE.maxAttempts;
      const right = live && decision.code !== undefined && sameCode(decision.code, twoStepCode(secret, participant.id, participant.twoStepCodeNonce!));
      if (!right) {
        if (!live) return { error: new DomainError("two_step_code_invalid", "Ask for a new code: the last one has expired or was used up.", { parameterProblems: { code: ["Ask for a new code: the last one has expired or was used up."] } }) };
        // Kept although the request fails (the caller sees the error after this commits): counted
        // per participant across codes, so new codes buy no new guesses.
        return { error: await countWrongCode(tx, participant, contract, linkOrigin) };
      }
    }
    if (decision.kind === "sign" && normalName(decision.fullName) !== normalName(participant.name)) {
      throw new DomainError("validation_failed", "Type your full name exactly as the contract names you to sign.", {
        parameterProblems: { full_name: [`Type your name as the contract writes it: ${participant.name}`] },
      });
    }

    const now = new Date();
    const signer: TAuditActor = { kind: "signer", participantId: participant.id, name: participant.name, email: participant.email };
    const signState = decision.kind === "sign" ? "signed" : "declined";
    await tx.participant.update({
      where: { id: participant.id },
      data: {
        signState,
        signStateUpdatedAt: now,
        ...(decision.kind === "sign" ? { signedName: decision.fullName.trim() } : { declineReason: decision.reason }),
        decidedIp: (client?.ip ?? "").slice(0, 100),
        decidedUserAgent: (client?.userAgent ?? "").slice(0, 500),
        twoStepCodeNonce: null,
        twoStepCodeExpiresAt: null,
        version: { increment: 1 },
        updatedAt: now,
      },
    });
    await writeAuditEvent({
      db: tx,
      actor: signer,
      action: decision.kind === "sign" ? "participant.sign" : "participant.decline",
      entityType: "participant",
      entityId: participant.id,
      contractId: contract.id,
      before: { sign_state: "undecided" },
      after: { sign_state: signState, ...(decision.kind === "decline" && decision.reason ? { decline_reason: decision.reason } : {}) },
    });

    // Checked as the contract is now, under its lock: whatever changed since publishing, a
    // counterparty without a signatory never lets the contract be signed.
    const parties = await tx.party.findMany({ where: { contractId: contract.id }, select: { myParty: true, participants: { select: { signatory: true, signState: true } } } });
    const contractState = decision.kind === "decline" ? "declined" : isFullySigned(parties) ? "signed" : "pending";
    if (contractState === "pending") {
      // The signature that completes a stage opens the next one, in this transaction.
      await startOpenStage({ tx, contract, actor: signer, linkOrigin, now });
      return { contractState };
    }

    await tx.contract.update({ where: { id: contract.id }, data: { state: contractState, stateUpdatedAt: now, updatedAt: now } });
    await writeAuditEvent({
      db: tx,
      actor: signer,
      action: contractState === "signed" ? "contract.sign" : "contract.decline",
      entityType: "contract",
      entityId: contract.id,
      contractId: contract.id,
      before: { state: "pending" },
      after: { state: contractState },
    });
    // The sealed copy is built after this commits (lib/services/seal/seal-contracts.ts).
    if (contractState === "signed") await queueSeal(tx, contract.id, linkOrigin);
    const everyone = await tx.participant.findMany({
      where: { party: { contractId: contract.id }, deliveryChannel: { in: ["email", "email_and_sms"] }, email: { not: "" } },
      orderBy: { id: "asc" },
    });
    for (const person of everyone) {
      const mail =
        contractState === "signed"
          ? signedMail({ participantName: person.name, contractName: contract.name })
          : declinedMail({ participantName: person.name, contractName: contract.name, declinedBy: participant.name, reason: decision.kind === "decline" ? decision.reason : "" });
      await enqueueEmail({ db: tx, kind: contractState, contractId: contract.id, participantId: person.id, to: person.email, linkOrigin, ...mail });
    }
    return { contractState };
  });
  // Also after a refusal: the wrong code that locked the link queued mail to the staff.
  mailQueued();
  if ("error" in outcome) throw outcome.error;
  if (outcome.contractState === "signed") sealQueued();
  return outcome;
}
