// Where the browser finds pdf.js's worker and the data files it reads (standard fonts, CMaps, ICC
// profiles, image decoders): on our own origin, under the installed version (app/pdfjs/[...asset]),
// so the pages' CSP needs no other host and a new version is a new URL (cached as immutable).

export const PDFJS_ASSET_PATH = "/pdfjs";

/** The folder of the installed pdf.js `version`'s files, with a trailing slash as pdf.js wants it. */
export const pdfjsAssetBase = (version: string) => `${PDFJS_ASSET_PATH}/${encodeURIComponent(version)}/`;
