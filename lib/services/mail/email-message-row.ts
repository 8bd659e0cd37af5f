import type { Prisma } from "@/lib/generated/prisma/client";

/** What the Outbox shows of a message (never `link_origin` or `lease_until`). */
export const EMAIL_MESSAGE_SELECT = {
  id: true,
  createdAt: true,
  kind: true,
  contractId: true,
  participantId: true,
  toAddress: true,
  subject: true,
  body: true,
  linkOrigin: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  lastError: true,
  sentAt: true,
  attachmentFileId: true,
} as const satisfies Prisma.EmailMessageSelect;

export type TEmailMessageRow = Omit<Prisma.EmailMessageGetPayload<{ select: typeof EMAIL_MESSAGE_SELECT }>, "body" | "linkOrigin"> & {
  /** The body as shown: filled in for `kept` messages, masked for all others. */
  displayBody: string;
};
