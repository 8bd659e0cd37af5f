import { lifecycleValuesOf } from "./lifecycle-values";
import type { Tx } from "@/lib/db";
import { dateAt, startOf } from "@/lib/domain/calendar";
import { lifecycleAt } from "@/lib/domain/lifecycle";
import type { Prisma } from "@/lib/generated/prisma/client";
import { lifecycleColumnsOf } from "./lifecycle-columns";
import { LIFECYCLE_SELECT, lifecycleFactsOf } from "./lifecycle-row";

/**
 * The signature that completes a contract starts its lifecycle, in that signature's transaction
 * (docs/lifecycle.md "States and transitions"): `signedOn` is that day in the workspace's time
 * zone, and the lifecycle as it is at `now` is stored with the job's first turn. A start date in
 * the past makes it active at once (no `contract.activate`: `contract.sign` carries the state).
 * Answers the lifecycle's values by their API names, for `contract.sign`'s audit event.
 */
export async function startLifecycle(tx: Tx, contractId: number, now: Date): Promise<Prisma.InputJsonObject> {
  const row = await tx.contract.findUniqueOrThrow({ where: { id: contractId }, select: LIFECYCLE_SELECT });
  const signedOn = dateAt(now, row.workspace.timeZone);
  const life = lifecycleAt(lifecycleFactsOf(row, signedOn), now);
  await tx.contract.update({
    where: { id: contractId },
    data: {
      signedOn: new Date(`${signedOn}T00:00:00.000Z`),
      ...lifecycleColumnsOf(row, life),
      renewedAt: life.renewals > 0 ? startOf(life.periodStartDate, row.workspace.timeZone) : null,
    },
  });
  return { signed_date: signedOn, ...lifecycleValuesOf(life) };
}
