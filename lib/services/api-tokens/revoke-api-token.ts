import { DomainError } from "@/lib/domain/errors";
import type { PrismaClient } from "@/lib/db";
import type { TUserActor } from "@/lib/domain/actor";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { API_TOKEN_PUBLIC_SELECT, serializeApiToken, type ApiTokenRecord } from "./api-token-record";
import { now as clockNow } from "@/lib/clock";

export interface RevokeApiTokenOptions {
  db: PrismaClient;
  /** The admin revoking it, signed in to the web app. */
  actor: TUserActor;
  id: number;
  requestId?: string;
}

/**
 * Revokes a token: from now on it authenticates nothing. Revoking a revoked token changes nothing
 * (same answer, no second audit event); an unknown id is a 404.
 */
export async function revokeApiToken({ db, actor, id, requestId }: RevokeApiTokenOptions): Promise<ApiTokenRecord> {
  return db.$transaction(async (tx) => {
    // Only a live token is updated, so two concurrent revokes write one event.
    const { count } = await tx.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: clockNow() } });
    const token = await tx.apiToken.findUnique({ where: { id }, select: API_TOKEN_PUBLIC_SELECT });
    if (!token) throw new DomainError("resource_not_found", `No API token has id ${id}.`);
    if (count === 1) {
      const after = serializeApiToken(token);
      await writeAuditEvent({
        db: tx,
        actor,
        action: "api_token.revoke",
        entityType: "api_token",
        entityId: token.id,
        requestId,
        before: { ...after, revoked_time: null },
        after,
      });
    }
    return token;
  });
}
