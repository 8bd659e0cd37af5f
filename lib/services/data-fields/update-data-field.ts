import type { PrismaClient } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/access";
import type { ContractDataField } from "@/lib/generated/prisma/client";
import type { TDataFieldRef } from "@/lib/schemas";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";
import { touchContract } from "@/lib/services/contracts/touch-contract";
import { findDataFieldOfContract } from "@/lib/services/data-fields/find-data-field-of-contract";
import { now as clockNow } from "@/lib/clock";

export interface UpdateDataFieldOptions {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  dataField: TDataFieldRef;
  /** Already parsed by ZUpdateDataFieldRequestSchema. */
  value: string;
  requestId?: string;
}

/**
 * docs/api.md "Data field values". In one transaction: lock the contract, then 404 (contract, data
 * field) → 403 → 409 (`data_fields_frozen` once published: the signatories sign these values;
 * `contract_not_editable` once signed, declined or overdue). Only a draft's fields change. The same
 * value writes nothing (same `updated_time`, no audit event); another updates the field and the
 * contract's `updated_time` and is audited.
 */
export async function updateDataField({ db, actor, contractId, dataField, value, requestId }: UpdateDataFieldOptions): Promise<ContractDataField> {
  return db.$transaction(async (tx) => {
    const contract = await lockVisibleContract(tx, actor, contractId);
    const current = await findDataFieldOfContract(tx, contractId, dataField);
    assertCanWrite(actor, contract.workspaceId);
    if (contract.state === "pending") {
      // What the signatories were invited to sign (some may have signed it already) stays as it was.
      throw new DomainError("data_fields_frozen", `Contract ${contractId} is published; its data fields can only change while it is a draft.`);
    }
    if (contract.state !== "draft") {
      throw new DomainError("contract_not_editable", `Contract ${contractId} is ${contract.state}; its data fields can only change while it is a draft.`);
    }
    if (current.value === value) return current;
    const now = clockNow();
    const updated = await tx.contractDataField.update({ where: { id: current.id }, data: { value, updatedAt: now } });
    await touchContract(tx, contractId, now);
    await writeAuditEvent({
      db: tx,
      actor,
      action: "data_field.update",
      entityType: "data_field",
      entityId: current.id,
      contractId,
      requestId,
      before: { value: current.value },
      after: { value },
    });
    return updated;
  });
}
