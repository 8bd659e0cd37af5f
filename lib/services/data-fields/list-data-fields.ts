import type { Actor } from "@/lib/domain/actor";
import { pageArgs } from "@/lib/services/page-args";
import type { Tx } from "@/lib/db";
import type { ContractDataField } from "@/lib/generated/prisma/client";
import type { TPagination } from "@/lib/schemas";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";

export interface ListDataFieldsOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
  /** `limit` may be `all` here (docs/api.md "Pagination"). */
  pagination: TPagination;
}

/** The data fields of a contract the actor may see (else 404), in the template's order (they are copied in it). */
export async function listDataFields({ db, actor, contractId, pagination }: ListDataFieldsOptions): Promise<{ count: number; rows: ContractDataField[] }> {
  await findVisibleContract(db, actor, contractId);
  const where = { contractId };
  const [count, rows] = await Promise.all([
    db.contractDataField.count({ where }),
    db.contractDataField.findMany({ where, orderBy: { id: "asc" }, ...pageArgs(pagination) }),
  ]);
  return { count, rows };
}
