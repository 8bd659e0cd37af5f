// A signatory hands their signature on from the signing page (docs/signing.md "Delegation"). The delegate
// becomes a participant of their own in the same party, with their own link; the delegator's row
// stays, marked delegated, so the contract and its trail show both people.
import type { PrismaClient, Tx } from "@/lib/db";
import type { TAuditActor } from "@/lib/domain/actor";
import { delegationRefusal } from "@/lib/domain/delegation";
import { DomainError } from "@/lib/domain/errors";
import { isWellFormedSigningToken, newNonce, signingToken, signingTokenHash } from "@/lib/domain/signing";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { participantLimitProblems } from "@/lib/services/participants/participant-limit-problems";
import { isTheirTurnNow } from "@/lib/services/signing/is-their-turn-now";
import { checkTwoStepCode } from "@/lib/services/signing/check-two-step-code";
import { findSigningLink } from "@/lib/services/signing/find-signing-link";
import { inviteParticipant } from "@/lib/services/signing/invite-participant";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";
import { now as clockNow } from "@/lib/clock";

/**
 * The link's participant under the contract's lock; a link whose contract has ended (signed,
 * declined, overdue) is refused with 409 rather than the dead link's 404, so the delegator learns
 * why. A withdrawn contract's links are gone altogether (404).
 */
async function lockLiveLink(tx: Tx, token: string) {
  try {
    return await findSigningLink(tx, token, { lock: true });
  } catch (error) {
    if (!(error instanceof DomainError && error.key === "resource_not_found" && isWellFormedSigningToken(token))) throw error;
    const ended = await tx.participant.findUnique({ where: { signingTokenHash: signingTokenHash(token) }, select: { party: { select: { contract: { select: { state: true } } } } } });
    if (!ended) throw error;
    throw new DomainError("contract_not_pending", `The contract is ${ended.party.contract.state}: there is nothing left to sign, so nothing to hand on.`);
  }
}

export interface TDelegation {
  name: string;
  email: string;
  reason: string;
  /** The e-mailed code, for a delegator whose two-step method is `email`. */
  code?: string | undefined;
}

/**
 * In one transaction under the contract's lock: refused as lib/domain/delegation.ts says (not
 * allowed, decided, SMS, a locked link or out of turn with an e-mailed code); with an e-mailed code,
 * the live code (checkTwoStepCode, wrong ones counted); 409 when the party, or the counterparties
 * together, already hold the most participants a contract may (each handover adds one); 400 when
 * the delegate's address is already a participant's of the contract. Then the delegate is added
 * (the delegator's party, sign_order, sign method and two-step method; e-mail delivery), the
 * delegator's link dies and they stop being a signatory, the handover is audited
 * (`participant.delegate`) and the delegate is invited at once when the delegator had been (their
 * stage is open), else when the stage opens.
 */
export async function delegateByLink({ db, token, delegation }: { db: PrismaClient; token: string; delegation: TDelegation }): Promise<{ delegateName: string }> {
  const outcome = await db.$transaction(async (tx: Tx) => {
    const { participant, party, contract } = await lockLiveLink(tx, token);
    const refused = delegationRefusal(contract, party, participant, await isTheirTurnNow(tx, contract, participant));
    if (refused) throw refused;
    if (participant.twoStepMethod === "email") {
      const refusal = await checkTwoStepCode(tx, participant, contract, delegation.code);
      if (refusal) return { error: refusal };
    }
    // Each handover adds a participant: a chain of them stops where adding one would.
    const limits = await participantLimitProblems(tx, party);
    if (limits.length > 0) {
      throw new DomainError("delegation_not_allowed", `No one more can be added to sign in your place (${limits.join("; ")}); ask the contract's owner instead.`);
    }
    const email = delegation.email.trim();
    const taken = await tx.participant.findFirst({ where: { party: { contractId: contract.id }, email: { equals: email, mode: "insensitive" } }, select: { id: true } });
    if (taken) {
      throw new DomainError("delegate_already_participant", "This person already takes part in the contract: hand your signature to someone who does not.", {
        parameterProblems: { email: ["already takes part in this contract: name someone else"] },
      });
    }

    const now = clockNow();
    const delegate = await tx.participant.create({
      data: {
        partyId: party.id,
        name: delegation.name.trim(),
        email,
        deliveryChannel: "email",
        signMethod: participant.signMethod,
        twoStepMethod: participant.twoStepMethod,
        signatory: true,
        signOrder: participant.signOrder,
        canUpdateContract: participant.canUpdateContract,
        createdAt: now,
        updatedAt: now,
      },
    });
    const nonce = newNonce();
    await tx.participant.update({
      where: { id: delegate.id },
      data: { signingNonce: nonce, signingTokenHash: signingTokenHash(signingToken(await loadSigningSecret(tx), delegate.id, nonce)) },
    });
    // The delegator's link dies with their part: no signature, no code, nothing left to use it for.
    await tx.participant.update({
      where: { id: participant.id },
      data: {
        signatory: false,
        delegatedAt: now,
        delegatedToId: delegate.id,
        signingNonce: null,
        signingTokenHash: null,
        twoStepCodeNonce: null,
        twoStepCodeExpiresAt: null,
        version: { increment: 1 },
        updatedAt: now,
      },
    });
    // The delegate signs where the delegator would have: their boxes on an uploaded PDF move over.
    await tx.placement.updateMany({ where: { participantId: participant.id }, data: { participantId: delegate.id, updatedAt: now } });
    // Mail not yet sent to the delegator (a reminder, a code) would carry a dead link.
    await tx.emailMessage.updateMany({
      where: { participantId: participant.id, status: { in: ["queued", "kept"] } },
      data: { status: "failed", lastError: "withdrawn: the participant delegated their signature" },
    });
    const delegator: TAuditActor = { kind: "signer", participantId: participant.id, name: participant.name, email: participant.email };
    await writeAuditEvent({
      db: tx,
      actor: delegator,
      action: "participant.delegate",
      entityType: "participant",
      entityId: participant.id,
      contractId: contract.id,
      workspaceId: contract.workspaceId,
      // The delegator is the actor (their name and e-mail kept with the event); the delegate is named here.
      before: { signatory: true },
      after: { signatory: false, delegate_name: delegate.name, delegate_email: delegate.email, ...(delegation.reason ? { reason: delegation.reason } : {}) },
    });
    if (participant.invitedAt !== null) {
      const message = `${participant.name} asked you to sign in their place${delegation.reason ? `: ${delegation.reason}` : "."}`;
      await inviteParticipant(tx, delegate, { contract, senderName: participant.name, message, linkOrigin: contract.linkOrigin, now });
    }
    return { delegateName: delegate.name };
  });
  // Also after a refusal: the wrong code that locked the link queued mail to the staff.
  mailQueued();
  if ("error" in outcome) throw outcome.error;
  return outcome;
}
