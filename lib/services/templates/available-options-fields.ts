import type { TAvailableOptionsRow } from "@/lib/services/templates/available-options-row";

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
