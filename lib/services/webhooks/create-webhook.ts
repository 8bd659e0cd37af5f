import { randomBytes } from "node:crypto";

import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertAdmin } from "@/lib/domain/access";
import type { TWebhookEventType } from "@/lib/domain/webhooks";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";

import { checkCallbackUrl, type TResolve } from "./check-callback-url";
import { WEBHOOK_PUBLIC_SELECT, type TWebhookRow } from "./webhook-row";

export interface CreateWebhookOptions {
  db: PrismaClient;
  actor: Actor;
  callbackUrl: string;
  description?: string | undefined;
  events?: TWebhookEventType[] | undefined;
  workspaceIds?: number[] | undefined;
  /** Where links in payloads point when PUBLIC_URL is unset: the origin the request came to. */
  linkOrigin: string;
  allowPrivate: boolean;
  requestId?: string;
  resolve?: TResolve;
}

/** `whsec_` + base64 of 24 random bytes, the Standard Webhooks form of a signing secret. */
const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString("base64")}`;

/**
 * A subscription (admins only, 403): the URL is checked (400 `webhook_callback_url_refused`), the
 * workspaces must exist (400), and it receives the events recorded after it was created. Its secret is
 * in the result, the one time it is answered.
 */
export async function createWebhook({ db, actor, callbackUrl, description, events, workspaceIds, linkOrigin, allowPrivate, requestId, resolve }: CreateWebhookOptions): Promise<{ webhook: TWebhookRow; secret: string }> {
  assertAdmin(actor);
  const { url } = await checkCallbackUrl(callbackUrl, { allowPrivate, ...(resolve ? { resolve } : {}) });
  const uniqueEvents = [...new Set(events ?? [])];
  const uniqueWorkspaces = [...new Set(workspaceIds ?? [])].sort((a, b) => a - b);
  const secret = newWebhookSecret();
  const webhook = await db.$transaction(async (tx: Tx) => {
    if (uniqueWorkspaces.length > 0) {
      const found = await tx.workspace.findMany({ where: { id: { in: uniqueWorkspaces } }, select: { id: true } });
      const missing = uniqueWorkspaces.filter((id) => !found.some((w) => w.id === id));
      if (missing.length > 0) {
        throw new DomainError("validation_failed", `workspace_ids: no workspace ${missing.join(", ")}`, { parameterProblems: { workspace_ids: [`no workspace has id ${missing.join(", ")}`] } });
      }
    }
    // Events from now on: the cursor starts at the newest event recorded so far.
    const [{ max } = { max: 0 }] = await tx.$queryRaw<{ max: number }[]>`SELECT COALESCE(MAX(id), 0)::int AS max FROM audit_events`;
    const created = await tx.webhookSubscription.create({
      data: {
        callbackUrl: url.toString(),
        description: description ?? "",
        events: uniqueEvents,
        workspaceIds: uniqueWorkspaces,
        secret,
        linkOrigin,
        lastEventId: max,
        createdById: actor.kind === "user" ? actor.userId : null,
      },
      select: WEBHOOK_PUBLIC_SELECT,
    });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "webhook.create",
      entityType: "webhook",
      entityId: created.id,
      requestId,
      after: { callback_url: created.callbackUrl, description: created.description, events: uniqueEvents, workspace_ids: uniqueWorkspaces },
    });
    return created;
  });
  return { webhook, secret };
}
