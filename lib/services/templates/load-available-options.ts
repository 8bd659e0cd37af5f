import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TAvailableOptions } from "@/lib/schemas";

// In the template's order; `name` only breaks ties between equal positions, so the order is stable.
const byPosition = { orderBy: [{ position: "asc" }, { name: "asc" }] as { position?: "asc"; name?: "asc" }[] };

/**
 * The relations a template's `available_options` are built from. A list query can put this in its
 * own `select` and call `toAvailableOptions` per row, instead of one `loadAvailableOptions` per item.
 */
export const AVAILABLE_OPTIONS_SELECT = {
  deliveryChannels: { select: { name: true, preferred: true, requiredParticipantAttributes: true }, ...byPosition },
  signMethods: { select: { name: true, preferred: true }, ...byPosition },
  twoStepMethods: { select: { name: true, preferred: true, requiredParticipantAttributes: true }, ...byPosition },
} as const satisfies Prisma.TemplateSelect;

export type TAvailableOptionsRow = Prisma.TemplateGetPayload<{ select: typeof AVAILABLE_OPTIONS_SELECT }>;

/** The template's option rows as the API and lib/domain/options.ts see them (in the template's order). */
export function toAvailableOptions(row: TAvailableOptionsRow): TAvailableOptions {
  return {
    delivery_channels: row.deliveryChannels.map((o) => ({
      name: o.name,
      preferred: o.preferred,
      required_participant_attributes: o.requiredParticipantAttributes,
    })),
    sign_methods: row.signMethods.map((o) => ({ name: o.name, preferred: o.preferred })),
    two_step_authentication_methods: row.twoStepMethods.map((o) => ({
      name: o.name,
      preferred: o.preferred,
      required_participant_attributes: o.requiredParticipantAttributes,
    })),
  };
}

/**
 * The options the template offers its participants. A template that does not exist offers nothing
 * (empty lists), which the participant rules then report as "not offered" rather than crash: callers
 * that must tell a missing template apart look the template up themselves.
 */
export async function loadAvailableOptions(db: Tx, templateId: number): Promise<TAvailableOptions> {
  const row = await db.template.findUnique({ where: { id: templateId }, select: AVAILABLE_OPTIONS_SELECT });
  return toAvailableOptions(row ?? { deliveryChannels: [], signMethods: [], twoStepMethods: [] });
}

/**
 * `AVAILABLE_OPTIONS_SELECT` of the template `templateId` (an SQL expression) as SQL expressions
 * giving JSON in the same order, for statements that read the options with other rows
 * (`jsonColumns(…, …, availableOptionsFields("t.id"))`).
 */
export function availableOptionsFields(templateId: string): Record<keyof TAvailableOptionsRow, string> {
  const list = (table: string, fields: string) =>
    `COALESCE((SELECT json_agg(json_build_object(${fields}) ORDER BY o.position, o.name) FROM ${table} o WHERE o.template_id = ${templateId}), '[]')`;
  const required = `'requiredParticipantAttributes', o.required_participant_attributes`;
  return {
    deliveryChannels: list("template_delivery_channels", `'name', o.name, 'preferred', o.preferred, ${required}`),
    signMethods: list("template_sign_methods", `'name', o.name, 'preferred', o.preferred`),
    twoStepMethods: list("template_two_step_methods", `'name', o.name, 'preferred', o.preferred, ${required}`),
  };
}
