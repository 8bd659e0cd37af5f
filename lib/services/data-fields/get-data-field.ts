import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import type { Tx } from "@/lib/db";
import type { ContractDataField } from "@/lib/generated/prisma/client";
import type { TDataFieldRef } from "@/lib/schemas";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";

export interface GetDataFieldOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
  /** By id, or by custom id (`c::{custom_id}` in the path). */
  dataField: TDataFieldRef;
}

/** A data field of a contract the actor may see; 404 when either is missing or it is another contract's. */
export async function getDataField({ db, actor, contractId, dataField }: GetDataFieldOptions): Promise<ContractDataField> {
  await findVisibleContract(db, actor, contractId);
  return findDataFieldOfContract(db, contractId, dataField);
}

/**
 * The contract's data field named by id or custom id (check the contract's visibility first); else a
 * 404. A custom id that several of its fields share names the first of them (lowest id).
 */
export async function findDataFieldOfContract(db: Tx, contractId: number, ref: TDataFieldRef): Promise<ContractDataField> {
  const row =
    "id" in ref
      ? await db.contractDataField.findFirst({ where: { id: ref.id, contractId } })
      : await db.contractDataField.findFirst({ where: { contractId, customId: ref.customId }, orderBy: { id: "asc" } });
  if (!row) {
    const name = "id" in ref ? String(ref.id) : `with custom id ${JSON.stringify(ref.customId)}`;
    throw new DomainError("resource_not_found", `Contract ${contractId} has no data field ${name}.`);
  }
  return row;
}
