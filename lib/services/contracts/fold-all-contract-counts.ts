import type { PrismaClient } from "@/lib/db";
import { foldContractCounts } from "@/lib/services/contracts/fold-contract-counts";

/** Folds until no delta is left (a run of the background job), at most `rounds` batches. */
export async function foldAllContractCounts({ db, batch = 10_000, rounds = 10 }: { db: PrismaClient; batch?: number; rounds?: number }): Promise<number> {
  let total = 0;
  for (let i = 0; i < rounds; i++) {
    const folded = await foldContractCounts({ db, batch });
    total += folded;
    if (folded < batch) break;
  }
  return total;
}
