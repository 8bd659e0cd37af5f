import type { Prisma } from "@/lib/generated/prisma/client";
import { now } from "@/lib/clock";
import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError, summarize } from "@/lib/domain/errors";
import { boxProblems, MAX_PLACEMENTS, ownerProblems } from "@/lib/domain/placement";
import { auditValuesOf } from "@/lib/schemas/field-table";
import { PLACEMENT_FIELDS, type TCreatePlacementRequest } from "@/lib/schemas/placement";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { touchContract } from "@/lib/services/contracts/touch-contract";
import { lockPlacementContext } from "./lock-placement-context";
import { PLACEMENT_SELECT, type TPlacementRow } from "./placement-row";

/**
 * `POST …/placements` (docs/documents.md "Uploaded PDF"): a box on a page of the draft's uploaded
 * PDF. 404 → 403 → 409 (not a draft; no uploaded PDF; 500 boxes) → 400 naming every problem at once
 * (a page the PDF lacks, a box off its page, someone who does not sign, a data field of another
 * contract). Audited as `placement.create`.
 */
export async function createPlacement({ db, actor, contractId, request, requestId }: { db: PrismaClient; actor: Actor; contractId: number; request: TCreatePlacementRequest; requestId?: string }): Promise<TPlacementRow> {
  return db.$transaction(async (tx: Tx) => {
    const context = await lockPlacementContext(tx, actor, contractId);
    const box = { kind: request.kind, participantId: request.participant_id ?? null, dataFieldId: request.data_field_id ?? null, page: request.page, x: request.x, y: request.y, width: request.width, height: request.height };
    const problems = { ...ownerProblems(box, context.signatories, context.participants, context.dataFields), ...boxProblems(box, context.pages) };
    if (Object.keys(problems).length > 0) throw new DomainError("validation_failed", summarize(problems), { parameterProblems: problems });
    if ((await tx.placement.count({ where: { contractId } })) >= MAX_PLACEMENTS) {
      throw new DomainError("placement_limit_reached", `Contract ${contractId} already has ${MAX_PLACEMENTS} boxes on its PDF.`);
    }
    const at = now();
    const row = await tx.placement.create({ data: { contractId, ...box, createdAt: at, updatedAt: at }, select: PLACEMENT_SELECT });
    await touchContract(tx, contractId, at);
    await writeAuditEvent({
      db: tx,
      actor,
      action: "placement.create",
      entityType: "placement",
      entityId: row.id,
      contractId,
      workspaceId: context.workspaceId,
      requestId,
      after: auditValuesOf(PLACEMENT_FIELDS, row) as Prisma.InputJsonObject,
    });
    return row;
  });
}
