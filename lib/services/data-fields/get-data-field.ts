import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import type { Tx } from "@/lib/db";
import type { ContractDataField } from "@/lib/generated/prisma/client";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";

export interface GetDataFieldOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
  dataFieldId: number;
}

/** A data field of a contract the actor may see; 404 when either is missing or it is another contract's. */
export async function getDataField({ db, actor, contractId, dataFieldId }: GetDataFieldOptions): Promise<ContractDataField> {
  await findVisibleContract(db, actor, contractId);
  const row = await db.contractDataField.findFirst({ where: { id: dataFieldId, contractId } });
  if (!row) throw new DomainError("resource_not_found", `Contract ${contractId} has no data field ${dataFieldId}.`);
  return row;
}
