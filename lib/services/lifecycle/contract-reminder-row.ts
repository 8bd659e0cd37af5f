import type { Prisma } from "@/lib/generated/prisma/client";

/** What an internal reminder's answer is made of (lib/api/serializers/contract-reminder.ts). */
export const CONTRACT_REMINDER_SELECT = {
  id: true,
  remindOn: true,
  note: true,
  createdById: true,
  dueAt: true,
  sentAt: true,
  createdAt: true,
  recipient: { select: { id: true, name: true, email: true } },
} as const satisfies Prisma.ContractReminderSelect;

export type TContractReminderRow = Prisma.ContractReminderGetPayload<{ select: typeof CONTRACT_REMINDER_SELECT }>;
