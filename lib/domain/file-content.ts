// What an uploaded attachment is, told by its first bytes (never by its name or declared type).
// Pure.
import { cutText } from "./cut-text.ts";


export const ATTACHMENT_TYPES = {
  "application/pdf": { extension: "pdf" },
  "image/png": { extension: "png" },
  "image/jpeg": { extension: "jpg" },
} as const;
export type TAttachmentType = keyof typeof ATTACHMENT_TYPES;

/** 10 MB an attachment, 20 a contract (docs/documents.md). */
export const MAX_ATTACHMENT_BYTES = 10_000_000;
export const MAX_ATTACHMENTS = 20;
/** What the PDF check reads at most before refusing the file as unreadable. */
export const MAX_PDF_PAGES = 500;
export const MAX_PDF_OBJECTS = 100_000;

/**
 * A PDF uploaded as the contract's document (docs/documents.md): at most 25 MB (told before it is
 * parsed), 1 to 300 pages, each side of a page (as displayed) 72 to 2,000 points (2.5 to 70 cm).
 */
export const MAX_UPLOADED_PDF_BYTES = 25 * 1024 * 1024;
/**
 * A sealed copy (its pages as the seal writes them, without object streams, the completion
 * certificate's pages and the signature) is at most this: /verify reads this much
 * (lib/http/front-door.ts). An uploaded PDF is refused when its pages so written, with an empty
 * page and the signature's room, leave less than `SEALED_PDF_CERTIFICATE_ROOM` for the certificate.
 */
export const MAX_SEALED_PDF_BYTES = MAX_UPLOADED_PDF_BYTES + 7 * 1024 * 1024;
export const SEALED_PDF_CERTIFICATE_ROOM = 1024 * 1024;
/** The room a seal's signature (its CMS, as hex) takes in the file (lib/services/seal/sign-pdf.ts). */
export const SEAL_SIGNATURE_BYTES = 12_288;
export const MAX_UPLOADED_PDF_PAGES = 300;
export const MIN_UPLOADED_PDF_PAGE_SIDE = 72;
export const MAX_UPLOADED_PDF_PAGE_SIDE = 2_000;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

export function sniffAttachmentType(bytes: Uint8Array): TAttachmentType | null {
  // "%PDF-"
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf";
  // The signature, then the IHDR chunk (13 bytes of header data).
  if (startsWith(bytes, PNG) && startsWith(bytes.subarray(8), [0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])) return "image/png";
  // SOI, then a marker.
  if (startsWith(bytes, [0xff, 0xd8, 0xff]) && bytes.length > 4) return "image/jpeg";
  return null;
}

/**
 * A file name safe to store and to put in Content-Disposition: the last path segment, control and
 * separator characters dropped, at most 200 characters, with the extension its content calls for.
 */
export function attachmentName(given: string, type: TAttachmentType): string {
  const base = (given.split(/[\\/]/).pop() ?? "")
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069"]/g, "")
    .trim()
    .replace(/\.[A-Za-z0-9]{1,5}$/, "");
  return `${cutText(base, 200) || "attachment"}.${ATTACHMENT_TYPES[type].extension}`;
}
