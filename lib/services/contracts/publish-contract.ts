import type { PrismaClient, Tx } from "@/lib/db";
import { type Actor, senderNameOf } from "@/lib/domain/actor";
import { DomainError, summarize, type TParameterProblems } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/access";
import { newNonce, signingToken, signingTokenHash } from "@/lib/domain/signing";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { loadPublishReadiness } from "@/lib/services/contracts/load-publish-readiness";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { invitedAtPublishing } from "@/lib/domain/signing-order";
import { inviteParticipant } from "@/lib/services/signing/invite-participant";
import { startOpenStage } from "@/lib/services/signing/start-open-stage";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";
import { now as clockNow } from "@/lib/clock";

export interface PublishContractOptions {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  subject?: string | undefined;
  message?: string | undefined;
  /** Where signing links point: PUBLIC_URL, else the origin the request came to. */
  linkOrigin: string;
  requestId?: string;
}

const DAY_MS = 86_400_000;

/**
 * Publishes a draft (docs/signing.md "Publishing"): in one transaction that first locks the
 * contract row, checks visible (404) → writable (403) → ready (409 `contract_not_publishable`, every
 * reason in `parameter_problems`); then the contract becomes pending with its signing period, each
 * participant gets a fresh signing link (only its hash is stored), e-mail invitations enter the
 * outbox and an SMS channel is recorded as undeliverable. Mail goes after the commit.
 */
export async function publishContract({ db, actor, contractId, subject, message, linkOrigin, requestId }: PublishContractOptions): Promise<void> {
  await db.$transaction(async (tx: Tx) => {
    await findVisibleContract(tx, actor, contractId);
    const locked = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM contracts WHERE id = ${contractId} FOR UPDATE`;
    if (locked.length === 0) throw new DomainError("resource_not_found", `Contract ${contractId} does not exist.`);
    const { contract, problems } = await loadPublishReadiness(tx, contractId);
    assertCanWrite(actor, contract.workspaceId);
    if (problems.length > 0) {
      const parameterProblems: TParameterProblems = {};
      for (const problem of problems) (parameterProblems[problem.path] ??= []).push(problem.message);
      throw new DomainError("contract_not_publishable", `Contract ${contractId} cannot be published: ${summarize(parameterProblems)}`, { parameterProblems });
    }

    const now = clockNow();
    const expiresAt = new Date(now.getTime() + contract.template.signingPeriodDays * DAY_MS);
    await tx.contract.update({
      where: { id: contractId },
      data: { state: "pending", publishedAt: now, linkOrigin, stateUpdatedAt: now, signingPeriodExpiresAt: expiresAt, updatedAt: now },
    });
    const secret = await loadSigningSecret(tx);
    const senderName = senderNameOf(actor);
    const invitation = { contract: { ...contract, signingPeriodExpiresAt: expiresAt }, senderName, subject, message, linkOrigin, now };
    for (const party of contract.parties) {
      for (const participant of party.participants) {
        // Everyone gets their link now (staff can copy it; out of turn it opens the waiting page);
        // a signatory of an ordered contract is invited when their stage opens.
        const nonce = newNonce();
        await tx.participant.update({
          where: { id: participant.id },
          data: { signingNonce: nonce, signingTokenHash: signingTokenHash(signingToken(secret, participant.id, nonce)), version: { increment: 1 }, updatedAt: now },
        });
        if (invitedAtPublishing(contract.signingOrder, participant)) await inviteParticipant(tx, participant, invitation);
      }
    }
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract.publish",
      entityType: "contract",
      entityId: contractId,
      contractId,
      requestId,
      before: { state: contract.state },
      after: {
        state: "pending",
        published_time: now.toISOString(),
        signing_period_expiry_time: expiresAt.toISOString(),
        ...(subject === undefined ? {} : { subject }),
      },
    });
    // An ordered contract's first stage opens now, recorded after the publishing so the trail reads in order.
    await startOpenStage({ tx, contract: { ...contract, signingPeriodExpiresAt: expiresAt }, actor, linkOrigin, now, senderName, subject, requestId });
  });
  mailQueued();
}
