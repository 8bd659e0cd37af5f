import type { PrismaClient } from "@/lib/db";
import { claimDue, type TLeaseQueue } from "@/lib/services/jobs/claim-due";

/** A claim lasts this long; building and signing a copy takes well under a second. */
export const SEAL_LEASE_MS = 5 * 60_000;
const BATCH = 4;
/** The seal queue as the lease helpers see it. */
export const SEALS: TLeaseQueue = { table: "contract_seals", key: "contract_id", claimed: "running" };

export interface TSealClaim {
  contractId: number;
  attempts: number;
  linkOrigin: string;
}

/** Claims due seals (queued and due, or running with a lease that ran out) and commits the claim. */
export async function claimDueSeals(db: PrismaClient, { batchSize = BATCH, leaseMs = SEAL_LEASE_MS } = {}): Promise<TSealClaim[]> {
  return claimDue<TSealClaim>(db, SEALS, {
    batchSize,
    leaseMs,
    order: "q.next_attempt_at, q.contract_id",
    returning: `d.contract_id AS "contractId", d.attempts, d.link_origin AS "linkOrigin"`,
  });
}

