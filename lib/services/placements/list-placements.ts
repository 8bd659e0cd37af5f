import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { PLACEMENT_SELECT, type TPlacementRow } from "./placement-row";

/** `GET …/placements`: the boxes on the contract's uploaded PDF, by page then id; 404 unless visible. Any state. */
export async function listPlacements({ db, actor, contractId }: { db: PrismaClient | Tx; actor: Actor; contractId: number }): Promise<TPlacementRow[]> {
  await findVisibleContract(db as Tx, actor, contractId);
  return db.placement.findMany({ where: { contractId }, select: PLACEMENT_SELECT, orderBy: [{ page: "asc" }, { id: "asc" }] });
}
