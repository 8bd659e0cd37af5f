import { apiTokenDisplayPrefix, generateApiToken, hashApiToken } from "@/lib/domain/access";
import type { PrismaClient } from "@/lib/db";
import type { TUserActor } from "@/lib/domain/actor";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { API_TOKEN_PUBLIC_SELECT, serializeApiToken, type ApiTokenRecord } from "./api-token-record";

export interface CreateApiTokenOptions {
  db: PrismaClient;
  /** The admin creating it, signed in to the web app (the caller checks that they are one). */
  actor: TUserActor;
  /** Already validated by ZCreateApiTokenRequestSchema. */
  name: string;
  requestId?: string;
}

/**
 * A new API token. Only its hash is stored; the plain token is in the result, the one time it is
 * ever available.
 */
export async function createApiToken({ db, actor, name, requestId }: CreateApiTokenOptions): Promise<{ token: string; apiToken: ApiTokenRecord }> {
  const token = generateApiToken();
  const apiToken = await db.$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: { name, prefix: apiTokenDisplayPrefix(token), tokenHash: hashApiToken(token), createdById: actor.userId },
      select: API_TOKEN_PUBLIC_SELECT,
    });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "api_token.create",
      entityType: "api_token",
      entityId: created.id,
      requestId,
      after: serializeApiToken(created),
    });
    return created;
  });
  return { token, apiToken };
}
