// Messages are stored with placeholders, never with a credential (docs/mail.md "The outbox"; docs/security.md,
// promise 11): `{{signing_link}}` and `{{code}}` are derived from the participant's current nonces
// only when the message is sent, or shown on the Outbox for a `kept` message.
import type { Tx } from "@/lib/db";
import { signingToken, twoStepCode } from "@/lib/domain/signing";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";

export const SIGNING_LINK_PLACEHOLDER = "{{signing_link}}";
export const CODE_PLACEHOLDER = "{{code}}";

/** What the Outbox shows instead of a credential it does not reveal. */
export const MASKED_SIGNING_LINK = "[signing link]";
export const MASKED_CODE = "[code]";

/** The fields of a message that rendering reads. */
export interface TRenderableEmail {
  participantId: number | null;
  body: string;
  linkOrigin: string;
}

/** The participant's nonces as they are now; `null` when the participant no longer exists. */
export interface TParticipantNonces {
  id: number;
  signingNonce: string | null;
  twoStepCodeNonce: string | null;
}

/** The message cannot be rendered (participant gone, no nonce); its text is the message's last_error. */
export class EmailRenderError extends Error {
  override name = "EmailRenderError";
}

/**
 * Fills in the placeholders from the participant's current nonces (pure: the caller loads the
 * secret and the participant). Throws EmailRenderError when a placeholder cannot be filled in.
 */
function fillEmailBody(message: TRenderableEmail, participant: TParticipantNonces | null, secret: string): string {
  const needsLink = message.body.includes(SIGNING_LINK_PLACEHOLDER);
  const needsCode = message.body.includes(CODE_PLACEHOLDER);
  if (!needsLink && !needsCode) return message.body;
  if (message.participantId === null) throw new EmailRenderError("cannot render: the message names no participant");
  if (participant === null || participant.id !== message.participantId) {
    throw new EmailRenderError(`cannot render: participant ${message.participantId} no longer exists`);
  }
  let body = message.body;
  if (needsLink) {
    if (!participant.signingNonce) throw new EmailRenderError(`cannot render: participant ${participant.id} has no signing link (not published, or withdrawn)`);
    if (!/^https?:\/\/[^/]+$/.test(message.linkOrigin)) throw new EmailRenderError("cannot render: the message has no origin for its signing link");
    const link = `${message.linkOrigin}/sign/${signingToken(secret, participant.id, participant.signingNonce)}`;
    body = body.replaceAll(SIGNING_LINK_PLACEHOLDER, link);
  }
  if (needsCode) {
    if (!participant.twoStepCodeNonce) throw new EmailRenderError(`cannot render: participant ${participant.id} has no current e-mail code`);
    body = body.replaceAll(CODE_PLACEHOLDER, twoStepCode(secret, participant.id, participant.twoStepCodeNonce));
  }
  return body;
}

const NONCES_SELECT = { id: true, signingNonce: true, twoStepCodeNonce: true } as const;

/** Renders many messages with one query for their participants; each result is a body or an error. */
export async function renderEmailBodies({ db, messages }: { db: Tx; messages: readonly TRenderableEmail[] }): Promise<({ body: string } | { error: string })[]> {
  const needing = messages.filter((m) => m.body.includes(SIGNING_LINK_PLACEHOLDER) || m.body.includes(CODE_PLACEHOLDER));
  const ids = [...new Set(needing.map((m) => m.participantId).filter((id): id is number => id !== null))];
  const participants = ids.length > 0 ? await db.participant.findMany({ where: { id: { in: ids } }, select: NONCES_SELECT }) : [];
  const byId = new Map(participants.map((p) => [p.id, p]));
  const secret = needing.length > 0 ? await loadSigningSecret(db) : "";
  return messages.map((message) => {
    try {
      const participant = message.participantId === null ? null : (byId.get(message.participantId) ?? null);
      return { body: fillEmailBody(message, participant, secret) };
    } catch (error) {
      if (error instanceof EmailRenderError) return { error: error.message };
      throw error;
    }
  });
}
