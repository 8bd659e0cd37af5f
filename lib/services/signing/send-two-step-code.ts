import type { PrismaClient, Tx } from "@/lib/db";
import { DomainError } from "@/lib/domain/errors";
import { newNonce } from "@/lib/domain/signing";
import { resendAfterMs, TWO_STEP_CODE, twoStepLockedError } from "@/lib/domain/two-step";
import { enqueueEmail } from "@/lib/services/mail/enqueue-email";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { twoStepCodeMail } from "@/lib/services/mail/messages";
import { assertTheirTurn } from "@/lib/services/signing/assert-their-turn";
import { findSigningLink } from "@/lib/services/signing/find-signing-link";
import { nowMs } from "@/lib/clock";

/** E-mails a fresh six-digit code to a participant whose two-step method is e-mail. */
export async function sendTwoStepCode({ db, token }: { db: PrismaClient; token: string }): Promise<{ sentTo: string }> {
  const result = await db.$transaction(async (tx: Tx) => {
    const { participant, contract } = await findSigningLink(tx, token, { lock: true });
    if (participant.twoStepMethod !== "email") {
      throw new DomainError("validation_failed", "This participant signs without an e-mailed code.", { parameterProblems: { two_step_authentication_method: [`is ${participant.twoStepMethod}`] } });
    }
    if (participant.signState !== "undecided") throw new DomainError("already_decided", `You have already ${participant.signState}.`);
    await assertTheirTurn(tx, contract, participant);
    if (participant.twoStepLockedAt !== null) throw twoStepLockedError();
    const now = nowMs();
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
    await enqueueEmail({ db: tx, kind: "two_step_code", contractId: contract.id, participantId: participant.id, to: participant.email, linkOrigin: contract.linkOrigin, ...mail });
    return { sentTo: participant.email };
  });
  mailQueued();
  return result;
}

function waitWords(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
