import type { Tx } from "@/lib/db";

/** Marks the contract as changed now (its `updated_time`), inside the change's transaction. */
export async function touchContract(db: Tx, contractId: number, now: Date): Promise<void> {
  await db.contract.update({ where: { id: contractId }, data: { updatedAt: now } });
}
