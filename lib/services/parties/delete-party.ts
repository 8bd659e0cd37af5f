import type { PrismaClient } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { assertDraftWritable } from "@/lib/services/contracts/editing-rules";
import { findPartyOfContract } from "@/lib/services/parties/find-party-of-contract";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";
import { touchContract } from "@/lib/services/contracts/touch-contract";
import { partyAuditValues } from "@/lib/services/parties/party-audit-values";
import { PARTY_WITH_PARTICIPANTS_INCLUDE } from "@/lib/services/parties/party-row";
import { now as clockNow } from "@/lib/clock";

export interface DeletePartyOptions {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  partyId: number;
  requestId?: string;
}

/**
 * docs/api.md "Adding and removing parties and participants": removes a counterparty with its
 * participants. In one transaction: lock the contract, then 404 (contract, party) → 403 → 409
 * `contract_not_draft` → 409 `my_party_not_removable`; delete, audit, touch the contract.
 */
export async function deleteParty({ db, actor, contractId, partyId, requestId }: DeletePartyOptions): Promise<void> {
  await db.$transaction(async (tx) => {
    const contract = await lockVisibleContract(tx, actor, contractId);
    const party = await findPartyOfContract(tx, contractId, partyId, PARTY_WITH_PARTICIPANTS_INCLUDE);
    assertDraftWritable(actor, contract, "parties can be removed");
    if (party.myParty) {
      throw new DomainError("my_party_not_removable", `Party ${partyId} is the owner-side party of contract ${contractId}; it cannot be removed.`);
    }
    await tx.party.delete({ where: { id: party.id } });
    await touchContract(tx, contractId, clockNow());
    await writeAuditEvent({
      db: tx,
      actor,
      action: "party.delete",
      entityType: "party",
      entityId: party.id,
      contractId,
      requestId,
      before: partyAuditValues(party),
    });
  });
}
