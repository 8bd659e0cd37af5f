import type { Tx } from "@/lib/db";
import { signingToken } from "@/lib/domain/signing";
import { findPendingParticipant, type ParticipantLinkOptions } from "@/lib/services/signing/find-pending-participant";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";

/** The participant's signing page, for staff to share another way (docs/signing.md "Links and the signing page"). */
export async function getSigningLink(options: ParticipantLinkOptions & { db: Tx; linkOrigin: string }): Promise<{ url: string; expiresAt: Date | null }> {
  const { contract, participant, nonce } = await findPendingParticipant(options.db, options);
  const token = signingToken(await loadSigningSecret(options.db), participant.id, nonce);
  return { url: `${options.linkOrigin}/sign/${token}`, expiresAt: contract.signingPeriodExpiresAt };
}
