import type { PrismaClient } from "@/lib/db";
import { foldContractCounts } from "@/lib/services/contracts/fold-contract-counts";

/** Folds until no delta is left (a run of the background job), at most `rounds` batches. */
export async function foldAllContractCounts({ db, batch = 10_000, rounds = 10, stopping }: { db: PrismaClient; batch?: number; rounds?: number; stopping?: () => boolean }): Promise<number> {
  return foldContractCounts({ db, batch, rounds, stopping });
}
