import type { Actor } from "@/lib/domain/actor";
import type { Tx } from "@/lib/db";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";

/**
 * The first step of every change to a contract's parts: locks the contract's row (`FOR UPDATE`, so
 * changes of one contract queue behind each other and a count taken now stays true until commit),
 * then finds it as `findVisibleContract` does (404 when not visible). Call it inside the transaction.
 */
export async function lockVisibleContract(db: Tx, actor: Actor, contractId: number) {
  await db.$queryRaw`SELECT id FROM contracts WHERE id = ${contractId} FOR UPDATE`;
  return findVisibleContract(db, actor, contractId);
}
