import { createReadStream } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";

// pdf.js's worker and data files, read from the installed pdfjs-dist and served from our own origin
// (components/pdf-pages): the browser then loads no script or font from elsewhere, and the pages'
// CSP (proxy.ts: worker and fetches from 'self') needs no exception. Only the files named in the
// table below are served, looked up by their exact name: a path that is not one of them (`..`,
// another folder, another version) is a 404 and never reaches the file system.
//
// `/pdfjs/{version}/{file}`: the installed version is part of the address, so a file never changes
// under its URL and browsers may keep it for a year.

const PACKAGE_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), "node_modules", "pdfjs-dist");

/** Folders whose every file (short of licences) pdf.js may ask for by name. */
const DATA_FOLDERS = ["standard_fonts", "cmaps", "iccs"] as const;
/** The image decoders (JBIG2, JPEG 2000, ICC colour), as WebAssembly and as their plain-JS fallbacks; not QuickJS (PDF scripts never run). */
const DECODERS = ["jbig2.wasm", "jbig2_nowasm_fallback.js", "openjpeg.wasm", "openjpeg_nowasm_fallback.js", "qcms_bg.wasm"] as const;

const CONTENT_TYPES: Record<string, string> = {
  ".mjs": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".ttf": "font/ttf",
  ".pfb": "application/octet-stream",
  ".bcmap": "application/octet-stream",
  ".icc": "application/vnd.iccprofile",
};

type TAssets = { version: string; files: ReadonlyMap<string, string> };
let assets: Promise<TAssets> | undefined;

/** The served names (`pdf.worker.min.mjs`, `cmaps/UniJIS-UCS2-H.bcmap`, …) and their files, read once. */
function loadAssets(): Promise<TAssets> {
  assets ??= (async () => {
    const { version } = JSON.parse(await readFile(path.join(/*turbopackIgnore: true*/ PACKAGE_DIR, "package.json"), "utf8")) as { version: string };
    const files = new Map<string, string>([["pdf.worker.min.mjs", path.join(/*turbopackIgnore: true*/ PACKAGE_DIR, "build", "pdf.worker.min.mjs")]]);
    for (const folder of DATA_FOLDERS) {
      for (const name of await readdir(path.join(/*turbopackIgnore: true*/ PACKAGE_DIR, folder))) {
        if (path.extname(name) in CONTENT_TYPES) files.set(`${folder}/${name}`, path.join(/*turbopackIgnore: true*/ PACKAGE_DIR, folder, name));
      }
    }
    for (const name of DECODERS) files.set(`wasm/${name}`, path.join(/*turbopackIgnore: true*/ PACKAGE_DIR, "wasm", name));
    return { version, files };
  })();
  assets.catch(() => (assets = undefined));
  return assets;
}

const notFound = () => new Response("Not found.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export async function GET(_req: Request, { params }: { params: Promise<{ asset: string[] }> }): Promise<Response> {
  const [version, ...rest] = (await params).asset;
  const { version: installed, files } = await loadAssets();
  const file = version === installed ? files.get(rest.join("/")) : undefined;
  if (!file) return notFound();
  const size = (await stat(file)).size;
  return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream",
      "Content-Length": String(size),
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
