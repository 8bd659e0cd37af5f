import type { Prisma } from "@/lib/generated/prisma/client";
import type { TAvailableOptions } from "@/lib/schemas";

// In the template's order; `name` only breaks ties between equal positions, so the order is stable.
const byPosition = { orderBy: [{ position: "asc" }, { name: "asc" }] as { position?: "asc"; name?: "asc" }[] };

/**
 * The relations a template's `available_options` are built from: the Prisma way of reading them. A
 * list query can put this in its own `select` and call `toAvailableOptions` per row, instead of one
 * `loadAvailableOptions` (load-available-options.ts) per item. Statements written in SQL read them
 * with `availableOptionsFields` (available-options-fields.ts), which writes `TAvailableOptions`
 * directly; test/services/available-options.test.ts holds the two equal.
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
