import { createHash } from "node:crypto";

/**
 * A contract's text (`body`, as read from the database) by its size and SHA-256: what the audit
 * event `contract.body_update` records, and the version the document's ETag names, which changes
 * whenever the text does (lib/api/json/document.ts).
 */
export function bodyDigest(body: unknown): { bytes: number; sha256: string } {
  const json = JSON.stringify(body);
  return { bytes: Buffer.byteLength(json), sha256: createHash("sha256").update(json).digest("hex") };
}
