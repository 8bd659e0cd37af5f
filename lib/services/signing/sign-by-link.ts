// What a participant does through their signing link (docs/api.md "Publishing and signing"): see the
// contract, ask for an e-mail code, sign or decline. No staff session: the link's token is the
// credential, looked up by its hash, and dead once the contract is no longer pending.
import type { PrismaClient, Tx } from "@/lib/db";
import type { TAuditActor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { SUPPORTED_SIGN_METHODS } from "@/lib/domain/publish-readiness";
import { isWellFormedSigningToken, newNonce, sameCode, signingTokenHash, twoStepCode } from "@/lib/domain/signing";
import type { Participant } from "@/lib/generated/prisma/client";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { enqueueEmail } from "@/lib/services/mail/enqueue-email";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { declinedMail, signedMail, twoStepCodeMail } from "@/lib/services/mail/messages";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";

/** A code works this long, for this many wrong tries; a new one can be asked for after the pause. */
export const TWO_STEP_CODE = { lifetimeMs: 10 * 60_000, maxAttempts: 5, resendAfterMs: 30_000 } as const;

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

/** Locks the contract, then finds the link's participant again: every decision on it queues here. */
async function lockByToken(tx: Tx, token: string) {
  const first = await findByToken(tx, token);
  await tx.$queryRaw`SELECT id FROM contracts WHERE id = ${first.contract.id} FOR UPDATE`;
  return findByToken(tx, token);
}

export interface TSigningView {
  contract: { id: number; name: string; state: string; expiresAt: Date | null };
  you: Pick<Participant, "id" | "name" | "email" | "signatory" | "signMethod" | "twoStepMethod" | "signState"> & { partyName: string; signMethodSupported: boolean };
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
      select: { name: true, myParty: true, participants: { orderBy: { id: "asc" }, select: { name: true, title: true, signatory: true, signState: true } } },
    });
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
      },
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
    const now = Date.now();
    const issuedAt = participant.twoStepCodeExpiresAt ? participant.twoStepCodeExpiresAt.getTime() - TWO_STEP_CODE.lifetimeMs : null;
    if (issuedAt !== null && now - issuedAt < TWO_STEP_CODE.resendAfterMs) {
      const wait = Math.ceil((TWO_STEP_CODE.resendAfterMs - (now - issuedAt)) / 1000);
      throw new DomainError("rate_limited", `A code was sent moments ago; ask again in ${wait} s.`, { headers: { "Retry-After": String(wait) } });
    }
    await tx.participant.update({
      where: { id: participant.id },
      data: { twoStepCodeNonce: newNonce(), twoStepCodeExpiresAt: new Date(now + TWO_STEP_CODE.lifetimeMs), twoStepCodeAttempts: 0 },
    });
    const mail = twoStepCodeMail({ participantName: participant.name, contractName: contract.name });
    await enqueueEmail({ db: tx, kind: "two_step_code", contractId: contract.id, participantId: participant.id, to: participant.email, linkOrigin, ...mail });
    return { sentTo: participant.email };
  });
  mailQueued();
  return result;
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
export async function decideByLink({ db, token, decision, linkOrigin }: { db: PrismaClient; token: string; decision: TDecision; linkOrigin: string }): Promise<{ contractState: string }> {
  const outcome = await db.$transaction(async (tx: Tx) => {
    const { participant, contract } = await lockByToken(tx, token);
    if (!participant.signatory) throw new DomainError("not_a_signatory", "You receive this contract to read; only its signatories sign or decline.");
    if (participant.signState !== "undecided") throw new DomainError("already_decided", `You have already ${participant.signState}.`);
    if (decision.kind === "sign" && !SUPPORTED_SIGN_METHODS.includes(participant.signMethod)) {
      throw new DomainError("sign_method_unavailable", `Signing with ${participant.signMethod} is not available here; ask the contract's owner to change your sign method.`);
    }
    if (participant.twoStepMethod === "sms") {
      throw new DomainError("sign_method_unavailable", "Two-step authentication by SMS is not available here; ask the contract's owner to change it.");
    }
    if (participant.twoStepMethod === "email") {
      const secret = await loadSigningSecret(tx);
      const live = participant.twoStepCodeNonce !== null && participant.twoStepCodeExpiresAt !== null && participant.twoStepCodeExpiresAt.getTime() > Date.now() && participant.twoStepCodeAttempts < TWO_STEP_CODE.maxAttempts;
      const right = live && decision.code !== undefined && sameCode(decision.code, twoStepCode(secret, participant.id, participant.twoStepCodeNonce!));
      if (!right) {
        // Kept although the request fails: the caller sees the error after this commits.
        if (live) await tx.participant.update({ where: { id: participant.id }, data: { twoStepCodeAttempts: { increment: 1 } } });
        return { error: new DomainError("two_step_code_invalid", live ? "The code is wrong." : "Ask for a code first; the last one expired or was used up.", { parameterProblems: { code: [live ? "is wrong" : "ask for a new code"] } }) };
      }
    }
    if (decision.kind === "sign" && normalName(decision.fullName) !== normalName(participant.name)) {
      throw new DomainError("validation_failed", "Type your full name exactly as the contract names you to sign.", {
        parameterProblems: { full_name: [`must be your name as written in the contract: ${participant.name}`] },
      });
    }

    const now = new Date();
    const signer: TAuditActor = { kind: "signer", participantId: participant.id };
    const signState = decision.kind === "sign" ? "signed" : "declined";
    await tx.participant.update({
      where: { id: participant.id },
      data: {
        signState,
        signStateUpdatedAt: now,
        ...(decision.kind === "sign" ? { signedName: decision.fullName.trim() } : { declineReason: decision.reason }),
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

    const waiting = await tx.participant.count({ where: { party: { contractId: contract.id }, signatory: true, signState: { not: "signed" } } });
    const contractState = decision.kind === "decline" ? "declined" : waiting === 0 ? "signed" : "pending";
    if (contractState === "pending") return { contractState };

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
  if ("error" in outcome) throw outcome.error;
  mailQueued();
  return outcome;
}
