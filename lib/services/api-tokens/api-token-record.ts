import type { TApiToken } from "@/lib/schemas/api-token";

/** The columns of an `ApiToken` row that may leave the server (never the hash). */
export const API_TOKEN_PUBLIC_SELECT = {
  id: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

export interface ApiTokenRecord {
  id: number;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

function timestamp(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

export function serializeApiToken(token: ApiTokenRecord): TApiToken {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    created_time: timestamp(token.createdAt),
    last_used_time: token.lastUsedAt ? timestamp(token.lastUsedAt) : null,
    revoked_time: token.revokedAt ? timestamp(token.revokedAt) : null,
  };
}
