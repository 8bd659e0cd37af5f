import type { Actor } from "@/lib/domain/actor";
import { absoluteUrl } from "@/lib/http/links";
import { canReadWorkspace } from "@/lib/domain/access";
import type { TTemplate, TTemplateDetail, TTemplateType } from "@/lib/schemas";
import type { TBodyJson } from "@/lib/schemas/document";
import { TEMPLATE_FIELDS } from "@/lib/schemas/template";
import { answerValuesOf } from "./answer-values";
import { toAvailableOptions } from "@/lib/services/templates/available-options-row";
import type { TTemplateDetailRow, TTemplateRow } from "@/lib/services/templates/template-row";

/**
 * The template's workspaces are limited to those the caller can see: the names of other
 * workspaces are not the caller's to know. Its type is answered by lib/api/json/template-type.ts
 * (`templateTypeAnswers`), the one producer of that shape.
 */
export function serializeTemplate(row: TTemplateRow, { actor, origin, templateTypes }: { actor: Actor; origin: string; templateTypes: ReadonlyMap<number, TTemplateType> }): TTemplate {
  // The table's answered fields (id, name, the lifecycle_settings section), in the answer's order.
  const { lifecycle_settings, ...fields } = answerValuesOf(TEMPLATE_FIELDS, row);
  return {
    ...(fields as Pick<TTemplate, "id" | "name">),
    template_type: row.templateTypeId === null ? null : (templateTypes.get(row.templateTypeId) ?? null),
    workspaces: row.workspaces
      .map(({ workspace }) => workspace)
      .filter((workspace) => canReadWorkspace(actor, workspace.id))
      .map(({ id, name }) => ({ id, name })),
    available_options: toAvailableOptions(row),
    lifecycle_settings: lifecycle_settings as TTemplate["lifecycle_settings"],
    _links: { self: { href: absoluteUrl(origin, `/v1/templates/${row.id}`) } },
  } satisfies TTemplate;
}

/** GET /v1/templates/{id}: the template with its body and data fields. */
export function serializeTemplateDetail(row: TTemplateDetailRow, context: { actor: Actor; origin: string; templateTypes: ReadonlyMap<number, TTemplateType> }): TTemplateDetail {
  return {
    ...serializeTemplate(row, context),
    body: row.body as unknown as TBodyJson,
    data_fields: row.dataFields.map((f) => ({ name: f.name, custom_id: f.customId, default_value: f.defaultValue })),
  } satisfies TTemplateDetail;
}
