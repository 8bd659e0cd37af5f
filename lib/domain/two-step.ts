// The e-mailed code's limits (docs/security.md "The e-mailed code"): together they bound how many
// guesses anyone holding a link can make over the whole signing period. Pure: no I/O.
import { DomainError } from "@/lib/domain/errors";

export const TWO_STEP_CODE = {
  /** A code works this long… */
  lifetimeMs: 10 * 60_000,
  /** …for this many wrong tries. */
  maxAttempts: 5,
  /** Wrong tries with one signing link, across all its codes, before signing by code is locked. */
  lockAfterWrongTries: 10,
  /** Wrong tries over every link the participant is ever given: past this a new link no longer unlocks. */
  wrongTriesEver: 50,
  /** The second code can be asked for this long after the first; each next wait doubles… */
  firstResendAfterMs: 30_000,
  /** …up to this. */
  maxResendAfterMs: 60 * 60_000,
} as const;

/** How long after the code sent last the next may be asked for, when `sent` codes went out with this link. */
export function resendAfterMs(sent: number): number {
  if (sent <= 0) return 0;
  return Math.min(TWO_STEP_CODE.firstResendAfterMs * 2 ** (sent - 1), TWO_STEP_CODE.maxResendAfterMs);
}

/** Locked now, after this many wrong tries with this link and in all? */
export function locksOut(wrongTries: number, wrongTriesTotal: number): boolean {
  return wrongTries >= TWO_STEP_CODE.lockAfterWrongTries || wrongTriesTotal >= TWO_STEP_CODE.wrongTriesEver;
}

/** 403 `two_step_locked`: this link can no longer sign, decline or hand on by code. */
export function twoStepLockedError(): DomainError {
  return new DomainError(
    "two_step_locked",
    "Too many wrong codes were typed with this link, so it can no longer be used to sign, decline or hand on. The contract's owner has been told: ask them to send you a new invitation, which comes with a new link.",
  );
}
