import type { Tx } from "@/lib/db";
import { now } from "@/lib/clock";

/**
 * Queues the sealed copy of a contract, in the transaction that makes it signed: the copy is owed
 * exactly when the signature commits. The sealer (seal-contracts.ts) builds it after the commit.
 */
export async function queueSeal(db: Tx, contractId: number, linkOrigin: string): Promise<void> {
  await db.$executeRaw`INSERT INTO contract_seals (contract_id, link_origin, created_at) VALUES (${contractId}, ${linkOrigin}, ${now()}) ON CONFLICT (contract_id) DO NOTHING`;
}
