import type { Tx } from "@/lib/db";
import type { ContractDataField } from "@/lib/generated/prisma/client";
import type { TDataFieldRef } from "@/lib/schemas";
import { dataFieldNotFound } from "@/lib/services/not-found";

/**
 * The contract's data field named by id or custom id (check the contract's visibility first); else a
 * 404. A custom id that several of its fields share names the first of them (lowest id).
 */
export async function findDataFieldOfContract(db: Tx, contractId: number, ref: TDataFieldRef): Promise<ContractDataField> {
  const row =
    "id" in ref
      ? await db.contractDataField.findFirst({ where: { id: ref.id, contractId } })
      : await db.contractDataField.findFirst({ where: { contractId, customId: ref.customId }, orderBy: { id: "asc" } });
  if (!row) throw dataFieldNotFound(contractId, ref);
  return row;
}
