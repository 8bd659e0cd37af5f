// Signing links and e-mail codes (docs/signing.md "Links and the signing page"). Neither is ever stored: a
// participant row keeps a random nonce, and the link's token and the code are HMACs of the
// participant's id and that nonce under the deployment's signing secret. The database alone (a
// backup, a read replica, the outbox) therefore opens no contract; a new nonce kills the old link.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A fresh nonce for a signing link or an e-mail code. */
export function newNonce(): string {
  return randomBytes(16).toString("base64url");
}

/** The token in `/sign/{token}`: 256 bits, URL-safe. */
export function signingToken(secret: string, participantId: number, nonce: string): string {
  return createHmac("sha256", secret).update(`signing-link:${participantId}:${nonce}`).digest("base64url");
}

/** What the participant row stores to find the participant a token belongs to. */
export function signingTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Tokens are 43 base64url characters; anything else is not looked up at all. */
export function isWellFormedSigningToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** The six-digit code of e-mail two-step authentication. */
export function twoStepCode(secret: string, participantId: number, nonce: string): string {
  const digest = createHmac("sha256", secret).update(`two-step-code:${participantId}:${nonce}`).digest();
  return String(digest.readUInt32BE(0) % 1_000_000).padStart(6, "0");
}

/** Compares a typed code with the expected one in constant time. */
export function sameCode(typed: string, expected: string): boolean {
  const a = Buffer.from(typed.trim());
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

