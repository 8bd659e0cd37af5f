import type { Prisma } from "@/lib/generated/prisma/client";
import { now } from "@/lib/clock";
import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError, summarize } from "@/lib/domain/errors";
import { boxProblems, ownerProblems } from "@/lib/domain/placement";
import { auditValuesOf } from "@/lib/schemas/field-table";
import { PLACEMENT_FIELDS, type TUpdatePlacementRequest } from "@/lib/schemas/placement";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { touchContract } from "@/lib/services/contracts/touch-contract";
import { lockPlacementContext } from "./lock-placement-context";
import { PLACEMENT_SELECT, type TPlacementRow } from "./placement-row";

/**
 * `PUT …/placements/{id}`: moves, resizes or reassigns a box; the attributes left out keep their
 * values, and the box that results is checked as a new one would be (createPlacement). Changing the
 * kind between a signer's and a data field's needs the other id. Audited as `placement.update`.
 */
export async function updatePlacement({
  db,
  actor,
  contractId,
  placementId,
  request,
  requestId,
}: {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  placementId: number;
  request: TUpdatePlacementRequest;
  requestId?: string;
}): Promise<TPlacementRow> {
  return db.$transaction(async (tx: Tx) => {
    const { box: before, ...context } = await lockPlacementContext(tx, actor, contractId, placementId);
    const kindChanges = request.kind !== undefined && request.kind !== before.kind;
    const box = {
      kind: request.kind ?? before.kind,
      // A new kind of the other owner starts from no owner, so the request must name one.
      participantId: request.participant_id !== undefined ? request.participant_id : kindChanges && request.kind === "data_field" ? null : before.participantId,
      dataFieldId: request.data_field_id !== undefined ? request.data_field_id : kindChanges && request.kind !== "data_field" ? null : before.dataFieldId,
      page: request.page ?? before.page,
      x: request.x ?? before.x,
      y: request.y ?? before.y,
      width: request.width ?? before.width,
      height: request.height ?? before.height,
    };
    const problems = { ...ownerProblems(box, context.signatories, context.participants, context.dataFields), ...boxProblems(box, context.pages, new Set(Object.keys(request).filter((key) => request[key as keyof typeof request] !== undefined))) };
    if (Object.keys(problems).length > 0) throw new DomainError("validation_failed", summarize(problems), { parameterProblems: problems });
    // The same box writes nothing (same `updated_time`, no audit event), as a participant's PUT.
    const changed = Object.keys(box).filter((name) => box[name as keyof typeof box] !== before[name as keyof typeof box]);
    if (changed.length === 0) return before;
    const at = now();
    const row = await tx.placement.update({ where: { id: placementId }, data: { ...box, updatedAt: at }, select: PLACEMENT_SELECT });
    await touchContract(tx, contractId, at);
    await writeAuditEvent({
      db: tx,
      actor,
      action: "placement.update",
      entityType: "placement",
      entityId: placementId,
      contractId,
      workspaceId: context.workspaceId,
      requestId,
      before: auditValuesOf(PLACEMENT_FIELDS, before, changed) as Prisma.InputJsonObject,
      after: auditValuesOf(PLACEMENT_FIELDS, row, changed) as Prisma.InputJsonObject,
    });
    return row;
  });
}
