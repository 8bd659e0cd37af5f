import type { PrismaClient, Tx } from "@/lib/db";
import type { TAuditActor } from "@/lib/domain/actor";
import { isFullySigned } from "@/lib/domain/completion";
import { DomainError } from "@/lib/domain/errors";
import { SUPPORTED_SIGN_METHODS } from "@/lib/domain/publish-readiness";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { enqueueEmail } from "@/lib/services/mail/enqueue-email";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { declinedMail, signedMail } from "@/lib/services/mail/messages";
import { queueSeal } from "@/lib/services/seal/queue-seal";
import { sealQueued } from "@/lib/services/seal/seal-wakeup";
import { assertTheirTurn } from "@/lib/services/signing/assert-their-turn";
import { checkTwoStepCode } from "@/lib/services/signing/check-two-step-code";
import { findSigningLink } from "@/lib/services/signing/find-signing-link";
import { startOpenStage } from "@/lib/services/signing/start-open-stage";
import { startLifecycle } from "@/lib/services/lifecycle/start-lifecycle";
import { now as clockNow } from "@/lib/clock";
import { cutText } from "@/lib/domain/cut-text";

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
  client,
}: {
  db: PrismaClient;
  token: string;
  decision: TDecision;
  /** Where the decision came from (the front door's client address, the User-Agent), for the completion certificate. */
  client?: { ip: string; userAgent: string };
}): Promise<{ contractState: string }> {
  const outcome = await db.$transaction(async (tx: Tx) => {
    const { participant, contract } = await findSigningLink(tx, token, { lock: true });
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
      const refusal = await checkTwoStepCode(tx, participant, contract, decision.code);
      if (refusal) return { error: refusal };
    }
    if (decision.kind === "sign" && normalName(decision.fullName) !== normalName(participant.name)) {
      throw new DomainError("validation_failed", "Type your full name exactly as the contract names you to sign.", {
        parameterProblems: { full_name: [`Type your name as the contract writes it: ${participant.name}`] },
      });
    }

    const now = clockNow();
    const signer: TAuditActor = { kind: "signer", participantId: participant.id, name: participant.name, email: participant.email };
    const signState = decision.kind === "sign" ? "signed" : "declined";
    await tx.participant.update({
      where: { id: participant.id },
      data: {
        signState,
        signStateUpdatedAt: now,
        ...(decision.kind === "sign" ? { signedName: decision.fullName.trim() } : { declineReason: decision.reason }),
        decidedIp: (client?.ip ?? "").slice(0, 100),
        decidedUserAgent: cutText(client?.userAgent ?? "", 500),
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
      await startOpenStage({ tx, contract, actor: signer, linkOrigin: contract.linkOrigin, now });
      return { contractState };
    }

    await tx.contract.update({ where: { id: contract.id }, data: { state: contractState, stateUpdatedAt: now, updatedAt: now } });
    // The last signature starts the contract's lifecycle (docs/lifecycle.md), in this transaction.
    const lifecycle = contractState === "signed" ? await startLifecycle(tx, contract.id, now) : null;
    await writeAuditEvent({
      db: tx,
      actor: signer,
      action: contractState === "signed" ? "contract.sign" : "contract.decline",
      entityType: "contract",
      entityId: contract.id,
      contractId: contract.id,
      before: { state: "pending" },
      after: { state: contractState, ...(lifecycle ? { lifecycle_state: lifecycle } : {}) },
    });
    // The sealed copy is built after this commits (lib/services/seal/seal-contracts.ts).
    if (contractState === "signed") await queueSeal(tx, contract.id, contract.linkOrigin);
    const everyone = await tx.participant.findMany({
      where: { party: { contractId: contract.id }, deliveryChannel: { in: ["email", "email_and_sms"] }, email: { not: "" } },
      orderBy: { id: "asc" },
    });
    for (const person of everyone) {
      const mail =
        contractState === "signed"
          ? signedMail({ participantName: person.name, contractName: contract.name })
          : declinedMail({ participantName: person.name, contractName: contract.name, declinedBy: participant.name, reason: decision.kind === "decline" ? decision.reason : "" });
      await enqueueEmail({ db: tx, kind: contractState, contractId: contract.id, participantId: person.id, to: person.email, linkOrigin: contract.linkOrigin, ...mail });
    }
    return { contractState };
  });
  // Also after a refusal: the wrong code that locked the link queued mail to the staff.
  mailQueued();
  if ("error" in outcome) throw outcome.error;
  if (outcome.contractState === "signed") sealQueued();
  return outcome;
}
