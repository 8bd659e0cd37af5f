import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { assertCanWrite } from "@/lib/domain/access";
import { DomainError } from "@/lib/domain/errors";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";
import { advanceLifecycle } from "./advance-lifecycle";
import { LIFECYCLE_SELECT, type TLifecycleRow } from "./lifecycle-row";

/**
 * The first steps of a staff action after signing (notice, termination), inside its transaction:
 * locks the contract's row and finds it (404), the caller may change it (403), it is signed (409
 * `lifecycle_action_refused`), then brings its stored lifecycle up to `now` (the changes the job
 * has not made yet are made and audited first, so none is skipped). Answers the row as now stored.
 */
export async function lockSignedLifecycle(tx: Tx, { actor, contractId, now, linkOrigin, action }: { actor: Actor; contractId: number; now: Date; linkOrigin: string; action: string }): Promise<TLifecycleRow> {
  const contract = await lockVisibleContract(tx, actor, contractId);
  assertCanWrite(actor, contract.workspaceId);
  if (contract.state !== "signed" || contract.signedOn === null) {
    throw new DomainError("lifecycle_action_refused", `Contract ${contractId} is ${contract.state}; only a signed contract can be ${action}.`);
  }
  const row = await tx.contract.findUniqueOrThrow({ where: { id: contractId }, select: LIFECYCLE_SELECT });
  await advanceLifecycle(tx, row, now, { linkOrigin });
  return tx.contract.findUniqueOrThrow({ where: { id: contractId }, select: LIFECYCLE_SELECT });
}
