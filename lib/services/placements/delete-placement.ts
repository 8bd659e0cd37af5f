import type { Prisma } from "@/lib/generated/prisma/client";
import { now } from "@/lib/clock";
import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { auditValuesOf } from "@/lib/schemas/field-table";
import { PLACEMENT_FIELDS } from "@/lib/schemas/placement";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { touchContract } from "@/lib/services/contracts/touch-contract";
import { lockPlacementContext } from "./lock-placement-context";

/** `DELETE …/placements/{id}`: removes a box from a draft's PDF. Audited as `placement.delete`. */
export async function deletePlacement({ db, actor, contractId, placementId, requestId }: { db: PrismaClient; actor: Actor; contractId: number; placementId: number; requestId?: string }): Promise<void> {
  await db.$transaction(async (tx: Tx) => {
    const { box: before, ...context } = await lockPlacementContext(tx, actor, contractId, placementId);
    await tx.placement.delete({ where: { id: placementId } });
    await touchContract(tx, contractId, now());
    await writeAuditEvent({
      db: tx,
      actor,
      action: "placement.delete",
      entityType: "placement",
      entityId: placementId,
      contractId,
      workspaceId: context.workspaceId,
      requestId,
      before: auditValuesOf(PLACEMENT_FIELDS, before) as Prisma.InputJsonObject,
    });
  });
}
