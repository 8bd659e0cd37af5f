import { createHash } from "node:crypto";
import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { bodyProblems, type TBody } from "@/lib/domain/contract-document";
import { DomainError, summarize } from "@/lib/domain/errors";
import { assertCanWriteEvery } from "@/lib/domain/access";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { TEMPLATE_DETAIL_SELECT, type TTemplateDetailRow } from "./template-row";
import { visibleTemplatesWhere } from "./template-visibility";

export interface UpdateTemplateOptions {
  db: PrismaClient;
  actor: Actor;
  templateId: number;
  request: { body: TBody };
  requestId?: string;
}

/** What the audit trail keeps of a body: its size and hash (the text itself is the template's). */
const bodyDigest = (body: unknown) => {
  const json = JSON.stringify(body);
  return { sections: (body as TBody).sections?.length ?? 0, bytes: Buffer.byteLength(json), sha256: createHash("sha256").update(json).digest("hex") };
};

/**
 * Replaces a template's body (docs/documents.md). Checks, in order: visible (404); the actor may
 * change every workspace the template is used in (403: a template shared with a workspace where
 * the actor only reads is not theirs to change); every placeholder names a data field of the
 * template and the body fits 200 KB (400, by path). Contracts already created keep the text they
 * copied. One transaction with the audit event `template.update`.
 */
export async function updateTemplate({ db, actor, templateId, request, requestId }: UpdateTemplateOptions): Promise<TTemplateDetailRow> {
  return db.$transaction(async (tx: Tx) => {
    const template = await tx.template.findFirst({
      where: { AND: [{ id: templateId }, visibleTemplatesWhere(actor)] },
      select: { id: true, body: true, workspaces: { select: { workspaceId: true } }, dataFields: { select: { customId: true } } },
    });
    if (!template) throw new DomainError("resource_not_found", `Template ${templateId} does not exist.`);
    assertCanWriteEvery(actor, template.workspaces.map((w) => w.workspaceId), "this template");
    const problems = bodyProblems(request.body, template.dataFields.map((f) => f.customId));
    if (Object.keys(problems).length > 0) throw new DomainError("validation_failed", summarize(problems), { parameterProblems: problems });
    const row = await tx.template.update({ where: { id: templateId }, data: { body: request.body as object }, select: TEMPLATE_DETAIL_SELECT });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "template.update",
      entityType: "template",
      entityId: templateId,
      requestId,
      before: { body: bodyDigest(template.body) },
      after: { body: bodyDigest(request.body) },
    });
    return row;
  });
}
