// The e-mailed code a participant confirms an act with (docs/security.md "The e-mailed code"):
// signing, declining and handing the signature on each check it here, so a leaked link buys the
// same few guesses whatever it is used for.
import type { Tx } from "@/lib/db";
import { DomainError } from "@/lib/domain/errors";
import { sameCode, twoStepCode } from "@/lib/domain/signing";
import { locksOut, TWO_STEP_CODE, twoStepLockedError } from "@/lib/domain/two-step";
import type { Participant } from "@/lib/generated/prisma/client";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { enqueueEmail } from "@/lib/services/mail/enqueue-email";
import { twoStepLockMail } from "@/lib/services/mail/messages";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";
import { now as clockNow, nowMs } from "@/lib/clock";

/**
 * One more wrong code: counted on the code, on the link and in all. At the limit the participant is
 * locked out of signing by code, the code dies, and the staff are told: an audit event (and so a
 * webhook) and an e-mail to the contract's organizer, else its creator.
 */
async function countWrongCode(
  tx: Tx,
  participant: Participant,
  contract: { id: number; name: string; createdById: number | null; linkOrigin: string },
): Promise<DomainError> {
  const wrongTries = participant.twoStepWrongTries + 1;
  const wrongTriesTotal = participant.twoStepWrongTriesTotal + 1;
  const locked = locksOut(wrongTries, wrongTriesTotal);
  const now = clockNow();
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
    await enqueueEmail({ db: tx, kind: "two_step_lock", contractId: contract.id, participantId: null, to: staff.email, linkOrigin: contract.linkOrigin, ...mail });
  }
  return twoStepLockedError();
}

/**
 * For a participant whose two-step method is `email`, inside the caller's transaction under the
 * contract's lock: 403 `two_step_locked` (thrown) for a locked link; null for the live code; else the
 * refusal to answer once this transaction commits, so that a wrong code is counted although the
 * request fails (per participant across codes: new codes buy no new guesses).
 */
export async function checkTwoStepCode(
  tx: Tx,
  participant: Participant,
  contract: { id: number; name: string; createdById: number | null; linkOrigin: string },
  code: string | undefined,
): Promise<DomainError | null> {
  if (participant.twoStepLockedAt !== null) throw twoStepLockedError();
  const secret = await loadSigningSecret(tx);
  const live = participant.twoStepCodeNonce !== null && participant.twoStepCodeExpiresAt !== null && participant.twoStepCodeExpiresAt.getTime() > nowMs() && participant.twoStepCodeAttempts < TWO_STEP_CODE.maxAttempts;
  if (live && code !== undefined && sameCode(code, twoStepCode(secret, participant.id, participant.twoStepCodeNonce!))) return null;
  if (!live) {
    const message = "Ask for a new code: the last one has expired or was used up.";
    return new DomainError("two_step_code_invalid", message, { parameterProblems: { code: [message] } });
  }
  return countWrongCode(tx, participant, contract);
}
