import type { PrismaClient } from "@/lib/db";
import { API_TOKEN_PUBLIC_SELECT, type ApiTokenRecord } from "./api-token-record";

/** Every API token, revoked ones included, newest first: the admins' tokens page. */
export async function listApiTokens({ db }: { db: PrismaClient }): Promise<ApiTokenRecord[]> {
  return db.apiToken.findMany({ select: API_TOKEN_PUBLIC_SELECT, orderBy: { id: "desc" } });
}
