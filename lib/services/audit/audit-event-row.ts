import type { Prisma } from "@/lib/generated/prisma/client";

/** What the contract's audit trail reads of an event: everything but the request id. */
export const AUDIT_EVENT_SELECT = {
  id: true,
  createdAt: true,
  action: true,
  entityType: true,
  entityId: true,
  actorUserId: true,
  apiTokenId: true,
  via: true,
  before: true,
  after: true,
  actorName: true,
  actorEmail: true,
} as const satisfies Prisma.AuditEventSelect;

/**
 * An event with who did it: the user's or signer's name and e-mail as the event stored them (looked
 * up only for events older than that), the token's name (never its hash).
 */
export type TAuditEventRow = Prisma.AuditEventGetPayload<{ select: typeof AUDIT_EVENT_SELECT }> & {
  actorUser: { id: number; name: string; email: string } | null;
  apiToken: { id: number; name: string } | null;
  /** For an event made through a signing link: the participant who acted (id null on the contract's own events). */
  signer: { id: number | null; name: string; email?: string } | null;
};
