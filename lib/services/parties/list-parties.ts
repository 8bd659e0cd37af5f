import type { Actor } from "@/lib/domain/actor";
import { pageArgs } from "@/lib/services/page-args";
import { PARTY_WITH_PARTICIPANTS_SELECT, type TPartyRow } from "@/lib/services/parties/party-row";
import type { Tx } from "@/lib/db";
import type { TPagination } from "@/lib/schemas";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";

export interface ListPartiesOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
  /** `limit` may be `all` here (a contract's child collection). */
  pagination: TPagination;
}

/** The parties of a contract the actor may see (else 404), owner side first, with their participants. */
export async function listParties({ db, actor, contractId, pagination }: ListPartiesOptions): Promise<{ count: number; rows: TPartyRow[] }> {
  await findVisibleContract(db, actor, contractId);
  const where = { contractId };
  const [count, rows] = await Promise.all([
    db.party.count({ where }),
    db.party.findMany({ where, select: PARTY_WITH_PARTICIPANTS_SELECT, orderBy: { id: "asc" }, ...pageArgs(pagination) }),
  ]);
  return { count, rows };
}
