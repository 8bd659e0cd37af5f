import type { Tx } from "@/lib/db";
import type { TAvailableOptions } from "@/lib/schemas";
import { AVAILABLE_OPTIONS_SELECT, toAvailableOptions } from "@/lib/services/templates/available-options-row";

/**
 * The options the template offers its participants. A template that does not exist offers nothing
 * (empty lists), which the participant rules then report as "not offered" rather than crash: callers
 * that must tell a missing template apart look the template up themselves.
 */
export async function loadAvailableOptions(db: Tx, templateId: number): Promise<TAvailableOptions> {
  const row = await db.template.findUnique({ where: { id: templateId }, select: AVAILABLE_OPTIONS_SELECT });
  return toAvailableOptions(row ?? { deliveryChannels: [], signMethods: [], twoStepMethods: [] });
}
