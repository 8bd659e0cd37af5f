import { apiTokenDisplayPrefix, generateApiToken, hashApiToken } from "@/lib/domain/api-token";
import type { PrismaClient } from "@/lib/db";
import { API_TOKEN_PUBLIC_SELECT, serializeApiToken, type ApiTokenRecord } from "./api-token-record";

export interface CreateApiTokenOptions {
  prisma: PrismaClient;
  /** The admin creating it (the caller checks that they are one). */
  actorUserId: number;
  /** Already validated by ZCreateApiTokenRequestSchema. */
  name: string;
  requestId?: string;
}

/**
 * A new API token. Only its hash is stored; the plain token is in the result, the one time it is
 * ever available.
 */
export async function createApiToken({ prisma, actorUserId, name, requestId }: CreateApiTokenOptions): Promise<{ token: string; apiToken: ApiTokenRecord }> {
  const token = generateApiToken();
  const apiToken = await prisma.$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: { name, prefix: apiTokenDisplayPrefix(token), tokenHash: hashApiToken(token), createdById: actorUserId },
      select: API_TOKEN_PUBLIC_SELECT,
    });
    await tx.auditEvent.create({
      data: {
        action: "api_token.create",
        entityType: "api_token",
        entityId: created.id,
        actorUserId,
        via: "session",
        requestId: requestId ?? null,
        after: serializeApiToken(created),
      },
    });
    return created;
  });
  return { token, apiToken };
}
