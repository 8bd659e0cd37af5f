// What a PDF's last signature proves, from its bytes alone (docs/security.md "The seal"): whether its
// byte range is the whole file but the signature itself, whether the CMS signature over those bytes
// verifies (pkijs: the message digest and the signer's signature), and who signed. Never throws on
// garbage: anything that does not parse is "no signature" or "does not verify".
import { createHash } from "node:crypto";

import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

export interface TPdfSignatureCheck {
  /**
   * A /ByteRange with its four numbers was found (whether or not it places a hex string), or a
   * malformed one (other than four unsigned numbers) beside a /Contents that holds a CMS signature.
   */
  signed: boolean;
  /** The byte range starts at 0, ends at the end of the file and skips exactly the signature's hex string. */
  coversWholeFile: boolean;
  /** The CMS parses and its signature over the byte range verifies. */
  cmsValid: boolean;
  /** SHA-256 (hex) of each certificate the CMS carries (DER): to find a known signer even when the signature fails. */
  certificateFingerprints: string[];
  /** SHA-256 (hex) of the certificate whose key made the signature, when it verifies. */
  signerFingerprint: string | null;
  /** The signature dictionary's /Name, when present. */
  name: string | null;
}

const NONE: TPdfSignatureCheck = { signed: false, coversWholeFile: false, cmsValid: false, certificateFingerprints: [], signerFingerprint: null, name: null };

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

type TPlacement = { at: number; range: [number, number, number, number] };

const BYTE_RANGE = /^\/ByteRange\s*\[\s*(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s*\]/;
/** The /ByteRanges looked at, from the file's end: a seal's is the last; a file of many is no copy of ours. */
const MAX_RANGES_TRIED = 16;
/** How far from a /ByteRange its dictionary's /Contents may start. */
const DICTIONARY_REACH = 4096;
/** How long a signature's hex string may be: the seal's is 2 × 12,288 characters; room for larger ones. */
const MAX_HEX_LENGTH = 256 * 1024;

/**
 * The last /ByteRange (of the last `MAX_RANGES_TRIED`) that places a signature: its range points at
 * a hex string (`<…>`) in the file. One that points at none (text written after the seal, in a
 * comment say) is passed over, and one whose range runs past the file's end (a cut file) still
 * names its signature. `parsed`: some /ByteRange held four unsigned numbers.
 */
function lastSignaturePlacement(text: string): { placement: TPlacement | null; parsed: boolean } {
  let parsed = false;
  let at = text.length;
  for (let tried = 0; tried < MAX_RANGES_TRIED; tried++) {
    at = text.lastIndexOf("/ByteRange", at - 1);
    if (at < 0) break;
    const match = BYTE_RANGE.exec(text.slice(at, at + 80));
    if (!match) continue;
    parsed = true;
    const [a, b, c, d] = match.slice(1).map(Number) as [number, number, number, number];
    if (b > a && c > b && c <= text.length && text[b] === "<" && text[c - 1] === ">") return { placement: { at, range: [a, b, c, d] }, parsed };
  }
  return { placement: null, parsed };
}

/** The /Contents hex string that starts nearest `at` (within `DICTIONARY_REACH`), as a placement whose range covers nothing. */
function nearestHexString(text: string, at: number): TPlacement | null {
  const from = Math.max(0, at - DICTIONARY_REACH);
  let nearest: number | null = null;
  for (const match of text.slice(from, at + DICTIONARY_REACH).matchAll(/\/Contents\s*</g)) {
    const b = from + match.index + match[0].length - 1;
    if (nearest === null || Math.abs(b - at) < Math.abs(nearest - at)) nearest = b;
  }
  if (nearest === null) return null;
  const end = text.slice(nearest, nearest + MAX_HEX_LENGTH).indexOf(">");
  return end < 0 ? null : { at, range: [0, nearest, nearest + end + 1, 0] };
}

/** Checks the last signature in `pdf`. */
export async function checkPdfSignature(pdf: Uint8Array): Promise<TPdfSignatureCheck> {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString("latin1");
  const found = lastSignaturePlacement(text);
  // No range that places a signature (the file shifted by bytes put before it, its range rewritten,
  // or malformed: negative, fewer numbers, not an array): the hex string nearest the last /ByteRange
  // still carries the signer's certificates, so a changed copy of this service's seal is told apart;
  // its range covers nothing. Without a well-formed /ByteRange, it is a signature only if its
  // /Contents is a CMS signature (the word written as text, or a placeholder's zeros, is none).
  const lastRange = text.lastIndexOf("/ByteRange");
  if (lastRange < 0) return NONE;
  const placement = found.placement ?? nearestHexString(text, lastRange);
  if (placement === null) return found.parsed ? { ...NONE, signed: true } : NONE;
  const signed = found.parsed;
  const { at, range } = placement;
  const [a, b, c, d] = range;
  // The dictionary's other entries sit around its /Contents hex string.
  const name = /\/Name\s*\(([^)]{0,200})\)/.exec(text.slice(Math.max(0, at - 2048), b) + text.slice(c, c + 2048))?.[1] ?? null;
  const hex = text.slice(b + 1, c - 1);
  const coversWholeFile = a === 0 && c + d === pdf.length && /^[0-9a-fA-F]*$/.test(hex) && hex.length % 2 === 0;
  const cms = Buffer.from(hex, "hex");
  const signedBytes = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, Math.min(c + d, pdf.length))]);
  try {
    const asn1 = asn1js.fromBER(new Uint8Array(cms).buffer);
    if (asn1.offset === -1) return signed ? { ...NONE, signed, coversWholeFile, name } : NONE;
    const content = new pkijs.ContentInfo({ schema: asn1.result });
    const signedData = new pkijs.SignedData({ schema: content.content });
    const certificates = (signedData.certificates ?? []).filter((x): x is pkijs.Certificate => x instanceof pkijs.Certificate);
    const certificateFingerprints = certificates.map((x) => sha256(new Uint8Array(x.toSchema(true).toBER(false))));
    let cmsValid = false;
    let signerFingerprint: string | null = null;
    try {
      const result = await signedData.verify({ signer: 0, data: new Uint8Array(signedBytes).buffer, checkChain: false, extendedMode: true });
      cmsValid = result.signatureVerified === true;
      if (cmsValid && result.signerCertificate) signerFingerprint = sha256(new Uint8Array(result.signerCertificate.toSchema(true).toBER(false)));
    } catch {
      cmsValid = false;
    }
    return { signed: true, coversWholeFile, cmsValid, certificateFingerprints, signerFingerprint, name };
  } catch {
    return signed ? { ...NONE, signed, coversWholeFile, name } : NONE;
  }
}
