import { createHmac, randomBytes } from "node:crypto";

import type { Tx } from "@/lib/db";
import { env } from "@/lib/env";

const SETTING = "signing_secret";

// One per process: the secret never changes while the deployment runs.
const g = globalThis as { __contractsSigningSecret?: Promise<string> };

/**
 * The key signing links and e-mail codes are derived with (lib/domain/signing.ts): derived from
 * AUTH_SECRET when that is set, else generated on first use and kept in the database, so every
 * instance derives the same links.
 */
export function loadSigningSecret(db: Tx): Promise<string> {
  g.__contractsSigningSecret ??= (async () => {
    const fromEnv = env().AUTH_SECRET;
    if (fromEnv) return createHmac("sha256", fromEnv).update("contracts signing links").digest("base64url");
    await db.appSetting.createMany({ data: [{ key: SETTING, value: randomBytes(32).toString("base64url") }], skipDuplicates: true });
    const row = await db.appSetting.findUniqueOrThrow({ where: { key: SETTING } });
    return row.value;
  })().catch((error: unknown) => {
    g.__contractsSigningSecret = undefined;
    throw error;
  });
  return g.__contractsSigningSecret;
}
