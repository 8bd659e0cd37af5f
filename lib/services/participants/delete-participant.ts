import type { PrismaClient } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { assertDraftWritable } from "@/lib/services/contracts/editing-rules";
import { findParticipantOfParty } from "@/lib/services/participants/find-participant-of-party";
import { findPartyOfContract } from "@/lib/services/parties/find-party-of-contract";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";
import { touchContract } from "@/lib/services/contracts/touch-contract";
import { participantAuditValues } from "@/lib/services/participants/participant-audit-values";
import { now as clockNow } from "@/lib/clock";

export interface DeleteParticipantOptions {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  partyId: number;
  participantId: number;
  requestId?: string;
}

/**
 * docs/api.md "Adding and removing parties and participants". In one transaction: lock the
 * contract, then 404 (contract, party, participant) → 403 → 409 `contract_not_draft` → 409
 * `organizer_not_removable` → 409 `party_needs_participant` (a counterparty's last participant);
 * delete, touch the party and the contract, audit.
 */
export async function deleteParticipant({ db, actor, contractId, partyId, participantId, requestId }: DeleteParticipantOptions): Promise<void> {
  await db.$transaction(async (tx) => {
    const contract = await lockVisibleContract(tx, actor, contractId);
    const party = await findPartyOfContract(tx, contractId, partyId);
    const participant = await findParticipantOfParty(tx, partyId, participantId);
    assertDraftWritable(actor, contract, "participants can be removed");
    if (participant.organizer) {
      throw new DomainError("organizer_not_removable", `Participant ${participantId} is the organizer of contract ${contractId}; it cannot be removed.`);
    }
    if (!party.myParty && (await tx.participant.count({ where: { partyId } })) <= 1) {
      throw new DomainError(
        "party_needs_participant",
        `Participant ${participantId} is the last participant of party ${partyId}; remove the party instead, or add another participant first.`,
      );
    }
    await tx.participant.delete({ where: { id: participant.id } });
    const now = clockNow();
    await tx.party.update({ where: { id: partyId }, data: { updatedAt: now } });
    await touchContract(tx, contractId, now);
    await writeAuditEvent({
      db: tx,
      actor,
      action: "participant.delete",
      entityType: "participant",
      entityId: participant.id,
      contractId,
      requestId,
      before: { party_id: partyId, ...participantAuditValues(participant) },
    });
  });
}
