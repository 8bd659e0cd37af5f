import { hash, randomBytes } from "node:crypto";

/** Prefix of tokens this service generates; any string of 16+ characters is accepted as a token. */
export const API_TOKEN_PREFIX = "cst_";
export const MIN_API_TOKEN_LENGTH = 16;

/** Tokens are stored and looked up only by this hash. */
export function hashApiToken(token: string): string {
  // The one-shot hash: no Hash object per request (it runs on every API request, twice for a PUT).
  return hash("sha256", token, "hex");
}

export function generateApiToken(): string {
  return API_TOKEN_PREFIX + randomBytes(30).toString("base64url");
}

/** The part of a token shown in lists, enough to recognise it, never enough to use it. */
export function apiTokenDisplayPrefix(token: string): string {
  return token.slice(0, Math.min(10, Math.floor(token.length / 2)));
}
