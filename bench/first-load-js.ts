// First-load JavaScript per page, read from a Next 16 (Turbopack) production build: the scripts a
// browser must fetch before the page is interactive are the build's `rootMainFiles` (framework
// runtime) plus the route's entry chunks (`entryJSFiles` of its client reference manifest: root
// layout, nested layouts, the page, the global error boundary). Summed gzip sizes, each file once.
// Polyfills are left out (`nomodule`: modern browsers never load them), like Next's own report.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { gzipSync } from "node:zlib";

export const BUDGET_KB = 150;
/** Loaded lazily by design: exempt from the budget (issue 6). */
export const EXEMPT_ROUTES = new Set(["/api-reference"]);
export const EMPTY_ROUTE = "/bench-empty";

export interface PageWeight {
  route: string;
  /** The app-paths key, e.g. `/(app)/contracts/page`. */
  entry: string;
  files: number;
  rawKb: number;
  gzipKb: number;
  /** gzip KB above the empty page's. */
  overEmptyKb: number;
  exempt: boolean;
  withinBudget: boolean;
}

export interface FirstLoadReport {
  budgetKb: number;
  empty: PageWeight | null;
  pages: PageWeight[];
  /** Why the report is incomplete, if it is. */
  problems: string[];
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** `/(app)/contracts/[id]/page` → `/contracts/[id]`. */
function routeOf(entry: string): string {
  const segments = entry.replace(/\/page$/, "").split("/").filter((s) => s && !(s.startsWith("(") && s.endsWith(")")));
  return `/${segments.join("/")}`;
}

function loadClientManifest(distDir: string, entry: string): Record<string, unknown> | null {
  const file = path.join(distDir, "server", "app", `${entry}_client-reference-manifest.js`);
  if (!existsSync(file)) return null;
  const sandbox: Record<string, unknown> = {};
  vm.runInNewContext(readFileSync(file, "utf8"), sandbox, { filename: file });
  const all = sandbox.__RSC_MANIFEST as Record<string, Record<string, unknown>> | undefined;
  return all?.[entry] ?? null;
}

export function measureFirstLoadJs(distDir: string): FirstLoadReport {
  const problems: string[] = [];
  const appPaths = JSON.parse(readFileSync(path.join(distDir, "server", "app-paths-manifest.json"), "utf8")) as Record<string, string>;
  const rootBuild = JSON.parse(readFileSync(path.join(distDir, "build-manifest.json"), "utf8")) as { rootMainFiles?: string[] };
  const sizes = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (file: string) => {
    let s = sizes.get(file);
    if (!s) {
      const buf = readFileSync(path.join(distDir, file));
      s = { raw: buf.length, gzip: gzipSync(buf).length };
      sizes.set(file, s);
    }
    return s;
  };

  const weights: PageWeight[] = [];
  for (const entry of Object.keys(appPaths).sort()) {
    if (!entry.endsWith("/page") || entry === "/_global-error/page") continue;
    const manifest = loadClientManifest(distDir, entry);
    if (!manifest) {
      problems.push(`${entry}: no client reference manifest`);
      continue;
    }
    const routeBuildFile = path.join(distDir, "server", "app", entry, "build-manifest.json");
    const routeBuild = existsSync(routeBuildFile) ? (JSON.parse(readFileSync(routeBuildFile, "utf8")) as { rootMainFiles?: string[] }) : rootBuild;
    const files = new Set<string>(routeBuild.rootMainFiles ?? rootBuild.rootMainFiles ?? []);
    for (const list of Object.values((manifest.entryJSFiles ?? {}) as Record<string, string[]>)) for (const f of list) files.add(f);
    let raw = 0;
    let gzip = 0;
    for (const f of files) {
      const s = sizeOf(f.replace(/^\/_next\//, ""));
      raw += s.raw;
      gzip += s.gzip;
    }
    const route = routeOf(entry);
    weights.push({ route, entry, files: files.size, rawKb: kb(raw), gzipKb: kb(gzip), overEmptyKb: 0, exempt: EXEMPT_ROUTES.has(route), withinBudget: true });
  }
  const empty = weights.find((w) => w.route === EMPTY_ROUTE) ?? null;
  if (!empty) problems.push(`the empty page ${EMPTY_ROUTE} is not in the build`);
  for (const w of weights) {
    w.overEmptyKb = empty ? Math.round((w.gzipKb - empty.gzipKb) * 10) / 10 : 0;
    w.withinBudget = w.exempt || w.overEmptyKb <= BUDGET_KB;
  }
  return { budgetKb: BUDGET_KB, empty, pages: weights.filter((w) => w !== empty), problems };
}
