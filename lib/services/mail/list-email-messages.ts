import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { assertAdmin } from "@/lib/domain/access";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TEmailMessageListQuery } from "@/lib/schemas/email-message";
import { EMAIL_MESSAGE_SELECT, type TEmailMessageRow } from "@/lib/services/mail/email-message-row";
import { maskEmailBody } from "@/lib/services/mail/mask-email-body";
import { renderEmailBodies } from "@/lib/services/mail/render-email-bodies";
import { pageArgs } from "@/lib/services/page-args";

export interface ListEmailMessagesOptions {
  db: Tx;
  actor: Actor;
  query: TEmailMessageListQuery;
}

/**
 * The Outbox, for administrators only, newest first. A `kept` message (no SMTP server configured)
 * shows its signing link and code, derived now from the participant's current nonces: on a
 * deployment that sends no mail this page is how the demo reaches them. Every other message shows
 * `[signing link]` and `[code]`: the link went (or goes) to its recipient only.
 */
export async function listEmailMessages({ db, actor, query }: ListEmailMessagesOptions): Promise<{ count: number; rows: TEmailMessageRow[] }> {
  assertAdmin(actor);
  const where: Prisma.EmailMessageWhereInput = {
    ...(query.contract_id !== undefined ? { contractId: query.contract_id } : {}),
    ...(query.status !== undefined ? { status: query.status } : {}),
  };
  const [count, found] = await Promise.all([
    db.emailMessage.count({ where }),
    db.emailMessage.findMany({ where, select: EMAIL_MESSAGE_SELECT, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...pageArgs(query) }),
  ]);
  const kept = found.filter((m) => m.status === "kept");
  const rendered = await renderEmailBodies({ db, messages: kept });
  const keptBodies = new Map(kept.map((m, i) => [m.id, rendered[i]!]));
  const rows = found.map(({ body, linkOrigin: _origin, ...rest }) => {
    const filled = keptBodies.get(rest.id);
    // A kept message that can no longer be rendered (participant gone, link withdrawn) shows the masks.
    const displayBody = filled && "body" in filled ? filled.body : maskEmailBody(body);
    return { ...rest, displayBody };
  });
  return { count, rows };
}
