import { jsonColumns } from "@/lib/db/sql";
import type { TAvailableOptions } from "@/lib/schemas";

/** An option's fields, each the option table's column of the same name. */
type TColumns<K extends keyof TAvailableOptions> = Record<keyof TAvailableOptions[K][number], string>;
const OPTION = { name: "name", preferred: "preferred" } as const satisfies TColumns<"sign_methods">;
const WITH_REQUIREMENTS = { ...OPTION, required_participant_attributes: "required_participant_attributes" } as const satisfies TColumns<"delivery_channels">;

/**
 * The `available_options` of the template `templateId` (an SQL expression) as SQL expressions, one
 * per key, giving JSON in the API's and the option rules' shape (`TAvailableOptions`, each list in
 * the template's order), for statements that read the options with other rows
 * (`jsonColumns(…, {}, availableOptionsFields("t.id"))`): read as they are, with no conversion.
 * The SQL way of reading them; the Prisma way is `AVAILABLE_OPTIONS_SELECT` with
 * `toAvailableOptions` (available-options-row.ts), and test/services/available-options.test.ts
 * holds the two equal.
 */
export function availableOptionsFields(templateId: string): Record<keyof TAvailableOptions, string> {
  const list = <K extends keyof TAvailableOptions>(table: string, columns: TColumns<K>) =>
    `COALESCE((SELECT json_agg(${jsonColumns("o", columns)} ORDER BY o.position, o.name) FROM ${table} o WHERE o.template_id = ${templateId}), '[]')`;
  return {
    delivery_channels: list<"delivery_channels">("template_delivery_channels", WITH_REQUIREMENTS),
    sign_methods: list<"sign_methods">("template_sign_methods", OPTION),
    two_step_authentication_methods: list<"two_step_authentication_methods">("template_two_step_methods", WITH_REQUIREMENTS),
  };
}
