import type { Prisma } from "@/lib/generated/prisma/client";
import { rowSelectOf } from "@/lib/schemas/field-table";
import { CONTRACT_REMINDER_FIELDS } from "@/lib/schemas/lifecycle";

/** What an internal reminder's answer is made of (lib/api/serializers/contract-reminder.ts): its table's row and its recipient. */
export const CONTRACT_REMINDER_SELECT = {
  ...rowSelectOf(CONTRACT_REMINDER_FIELDS),
  recipient: { select: { id: true, name: true, email: true } },
} as const satisfies Prisma.ContractReminderSelect;

export type TContractReminderRow = Prisma.ContractReminderGetPayload<{ select: typeof CONTRACT_REMINDER_SELECT }>;
