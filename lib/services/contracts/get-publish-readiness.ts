import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import type { TReadinessProblem } from "@/lib/domain/publish-readiness";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { loadPublishReadiness } from "@/lib/services/contracts/load-publish-readiness";

export interface PublishReadinessOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
}

/** What stands between the contract and publishing (the contract page's checklist); 404 if not visible. */
export async function getPublishReadiness({ db, actor, contractId }: PublishReadinessOptions): Promise<TReadinessProblem[]> {
  const contract = await findVisibleContract(db, actor, contractId);
  return (await loadPublishReadiness(db, contract.id)).problems;
}
