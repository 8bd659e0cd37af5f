import pg from "pg";
import { E2E_SOCKET_DIR } from "@/playwright.config";

/**
 * Runs statements on the app's embedded database (through its socket), for rows no endpoint writes
 * yet. One statement at a time, outside transactions: the embedded database serves one session's
 * transaction at a time.
 */
export async function withAppDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ host: E2E_SOCKET_DIR, user: "postgres", database: "postgres" });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
