import type { Tx } from "@/lib/db";
import { newNonce, signingToken, signingTokenHash } from "@/lib/domain/signing";
import { TWO_STEP_CODE } from "@/lib/domain/two-step";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";

/**
 * The participant's columns for a new signing link: the old link dies (its hash no longer matches),
 * and the second factor starts afresh with it (no code, no wrong tries, no back-off, no lock), except
 * that a participant who has used up every wrong try they will ever get stays locked
 * (docs/security.md "The e-mailed code"). Spread into the participant's update.
 */
export async function newSigningLinkData(tx: Tx, participant: { id: number; twoStepWrongTriesTotal: number; twoStepLockedAt: Date | null }) {
  const nonce = newNonce();
  const exhausted = participant.twoStepWrongTriesTotal >= TWO_STEP_CODE.wrongTriesEver;
  return {
    signingNonce: nonce,
    signingTokenHash: signingTokenHash(signingToken(await loadSigningSecret(tx), participant.id, nonce)),
    twoStepCodeNonce: null,
    twoStepCodeExpiresAt: null,
    twoStepCodeAttempts: 0,
    twoStepCodeRequests: 0,
    twoStepWrongTries: 0,
    twoStepLockedAt: exhausted ? participant.twoStepLockedAt : null,
    // A new link goes out in a new invitation: an earlier one's delivery failure is acted on.
    deliveryFailedAt: null,
    deliveryFailure: "",
  };
}
