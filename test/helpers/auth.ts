import { createAuth, loadAuthSecret, type TAuth } from "@/lib/auth/server";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

/** The origin in-process auth tests send their requests to. */
export const AUTH_TEST_ORIGIN = "http://127.0.0.1:3999";
export const AUTH_TEST_PASSWORD = "correct horse battery";

/** better-auth, configured as the app configures it (plain http), on a fresh test database. */
export async function authOnTestDatabase(): Promise<{ db: TestDatabase; auth: TAuth }> {
  const db = await createTestDatabase();
  return { db, auth: createAuth({ prisma: db.prisma, secret: await loadAuthSecret(db.prisma), secure: false }) };
}
