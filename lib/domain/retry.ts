// The one back-off schedule for work retried in the background: e-mail delivery
// (lib/services/mail/deliver-email.ts) and webhook deliveries (lib/domain/webhooks.ts).

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay after the n-th failed attempt (1-based): 5 s, 30 s, 2 min, 10 min, 1 h, then every 3 h. */
export const RETRY_DELAYS_MS = [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, HOUR] as const;
export const LATER_RETRY_DELAY_MS = 3 * HOUR;

/**
 * The wait after `attempts` failed attempts (at least 1), with ±20 % jitter (`random` in [0, 1)) so
 * that a receiver coming back is not hit by every queued retry at once; `scale` shrinks it (tests).
 */
export function backoffDelay(attempts: number, { scale = 1, random = Math.random() }: { scale?: number; random?: number } = {}): number {
  const base = RETRY_DELAYS_MS[Math.max(attempts, 1) - 1] ?? LATER_RETRY_DELAY_MS;
  return Math.max(1, Math.round(base * scale * (0.8 + 0.4 * random)));
}
