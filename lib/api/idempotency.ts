import { createHash } from "node:crypto";
import type { Actor } from "@/lib/domain/actor";
import { ApiError } from "@/lib/api/errors";
import type { Tx } from "@/lib/db";

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_HOURS = 24;
const HEADER = "idempotency-key";

export interface TIdempotency {
  scope: string;
  key: string;
  requestHash: string;
}

/** The first answer given for a key, to be sent again for a retry. */
export class IdempotentReplay extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super("idempotent replay");
  }
}

/**
 * The request's `Idempotency-Key`, scoped to whoever sends it (the API token and the user it acts
 * for, or the session's user), so two clients can never see each other's results. Null without
 * the header.
 */
export function idempotencyOf(req: Request, actor: Actor, body: unknown): TIdempotency | null {
  const key = req.headers.get(HEADER);
  if (key === null) return null;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new ApiError("validation_failed", "The Idempotency-Key header must be 1 to 255 visible ASCII characters.", {
      parameterProblems: { "Idempotency-Key": ["must be 1 to 255 visible ASCII characters"] },
    });
  }
  const who = actor.kind === "user" ? `user:${actor.userId}` : "anonymous-admin";
  const scope = actor.via === "session" ? `session:${who}` : `token:${actor.apiTokenId}:${who}`;
  const requestHash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
  return { scope, key, requestHash };
}

/**
 * First statement of the creating transaction: claims the key, or ends the transaction with the
 * stored answer (IdempotentReplay) or a 409 when the key came with another body. A concurrent
 * request with the same key waits on the unique index until the first commits (then replays) or
 * rolls back (then claims it itself), so exactly one of them creates.
 */
export async function claimIdempotencyKey(tx: Tx, idem: TIdempotency): Promise<void> {
  await tx.$executeRaw`DELETE FROM idempotency_keys WHERE expires_at < now() AND (random() < 0.01 OR (scope = ${idem.scope} AND key = ${idem.key}))`;
  const claimed = await tx.$queryRaw<{ id: number }[]>`
    INSERT INTO idempotency_keys (scope, key, request_hash, status, response, expires_at)
    VALUES (${idem.scope}, ${idem.key}, ${idem.requestHash}, 0, '{}'::jsonb, now() + make_interval(hours => ${IDEMPOTENCY_TTL_HOURS}))
    ON CONFLICT (scope, key) DO NOTHING
    RETURNING id`;
  if (claimed.length > 0) return;
  const stored = await tx.idempotencyKey.findUniqueOrThrow({ where: { scope_key: { scope: idem.scope, key: idem.key } } });
  if (stored.requestHash !== idem.requestHash) {
    throw new ApiError("idempotency_key_reused", "This Idempotency-Key was already used with a different request body.", {
      parameterProblems: { "Idempotency-Key": ["already used with a different body"] },
    });
  }
  throw new IdempotentReplay(stored.status, stored.response);
}

/** Last statement of the creating transaction: the answer a retry will get. */
export async function storeIdempotentAnswer(tx: Tx, idem: TIdempotency, status: number, body: unknown): Promise<void> {
  await tx.idempotencyKey.update({
    where: { scope_key: { scope: idem.scope, key: idem.key } },
    data: { status, response: body as object },
  });
}
