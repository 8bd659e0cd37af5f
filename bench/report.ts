// The benchmark's outputs: the console table, the issue's targets checked, and the p99 chart (SVG).
import type { ExplainReport } from "./explain";
import type { FirstLoadReport } from "./first-load-js";
import type { ScenarioResult } from "./load";

export interface DatabaseRun {
  database: "postgres" | "pglite";
  dataset: { contracts: number; templateTypes: number; reused: boolean; loadSeconds: number; ensureSeconds: number };
  smallDataset: { contracts: number; reused: boolean; loadSeconds: number; ensureSeconds: number };
  results: ScenarioResult[];
  /** The contracts list (offset 0) on the 1,000-contract data set. */
  small: ScenarioResult | null;
  appRssPeakMb: number | null;
  /** The app's RSS after start, before any load. */
  appIdleRssMb: number | null;
  appStartSeconds: number;
}

export interface TargetCheck {
  target: string;
  database: string | null;
  value: string;
  limit: string;
  met: boolean;
}

export interface BenchReport {
  generatedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; platform: string };
  settings: { samples: number; durationSec: number; warmupSec: number; connections: number; logLevel: string };
  buildSeconds: number | null;
  totalSeconds: number;
  runs: DatabaseRun[];
  firstLoadJs: FirstLoadReport | null;
  explain: { database: string; flagged: ExplainReport["flagged"]; cases: { name: string; actor: string; pageMs: number; countMs: number; partiesMs: number; flags: string[] }[] } | null;
  targets: TargetCheck[];
  problems: string[];
}

const f1 = (v: number) => (Math.round(v * 10) / 10).toString();

function find(run: DatabaseRun, id: string, server: "app" | "floor") {
  return run.results.find((r) => r.id === id && r.server === server && r.status === "ok");
}

export function ratio(run: DatabaseRun, id: string): number | null {
  const app = find(run, id, "app");
  const floor = find(run, id, "floor");
  return app && floor && floor.rps > 0 ? Math.round((app.rps / floor.rps) * 100) / 100 : null;
}

export function checkTargets(runs: DatabaseRun[], firstLoad: FirstLoadReport | null, totalSeconds: number): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const run of runs) {
    const db = run.database;
    for (const r of run.results.filter((r) => r.server === "app" && r.kind !== "create" && r.kind !== "baseline")) {
      const q = ratio(run, r.id);
      if (q === null) {
        checks.push({ target: `${r.id}: throughput ≥ 0.5× floor`, database: db, value: r.status === "ok" ? "no floor" : "not measured", limit: "≥ 0.5", met: false });
      } else {
        checks.push({ target: `${r.id}: throughput ≥ 0.5× floor`, database: db, value: `${q}× (${f1(r.rps)} vs ${f1(find(run, r.id, "floor")!.rps)} req/s)`, limit: "≥ 0.5×", met: q >= 0.5 });
      }
    }
    const all = [...run.results, ...(run.small ? [run.small] : [])];
    const bad = (r: ScenarioResult) => r.non2xx + r.errors + r.warmupNon2xx + r.warmupErrors + r.probeFailures;
    const failing = all.filter((r) => r.status !== "ok" || bad(r) > 0);
    checks.push({
      target: "no scenario with errors (non-2xx, socket errors, timeouts; warm-up included)",
      database: db,
      value: failing.length
        ? failing
            .map((r) => `${r.server}/${r.id}: ${r.status === "ok" ? `${r.non2xx} non-2xx + ${r.errors} errors measured, ${r.warmupNon2xx + r.warmupErrors} in warm-up, ${r.probeFailures} failed probes` : r.status}`)
            .join("; ")
        : "0 in every scenario",
      limit: "0",
      met: failing.length === 0,
    });
    const p0 = find(run, "contracts-offset-0", "app");
    const p19900 = find(run, "contracts-offset-19900", "app");
    if (p0 && p19900) {
      const q = p19900.latencyMs.p99 / p0.latencyMs.p99;
      checks.push({ target: "contracts list p99 at offset=19900 ≤ 2× offset=0", database: db, value: `${f1(p19900.latencyMs.p99)} / ${f1(p0.latencyMs.p99)} ms = ${q.toFixed(2)}×`, limit: "≤ 2×", met: q <= 2 });
    } else {
      checks.push({ target: "contracts list p99 at offset=19900 ≤ 2× offset=0", database: db, value: "not measured", limit: "≤ 2×", met: false });
    }
    if (p0 && run.small?.status === "ok") {
      const q = p0.latencyMs.p99 / run.small.latencyMs.p99;
      checks.push({
        target: `contracts list p99 at ${run.dataset.contracts.toLocaleString("en")} contracts ≤ 1.5× at ${run.smallDataset.contracts.toLocaleString("en")}`,
        database: db,
        value: `${f1(p0.latencyMs.p99)} / ${f1(run.small.latencyMs.p99)} ms = ${q.toFixed(2)}×`,
        limit: "≤ 1.5×",
        met: q <= 1.5,
      });
    } else {
      checks.push({ target: "contracts list p99 at 100,000 ≤ 1.5× at 1,000", database: db, value: "not measured", limit: "≤ 1.5×", met: false });
    }
    checks.push({
      target: "app server RSS peak under load",
      database: db,
      value: run.appRssPeakMb === null ? "not measured" : `${f1(run.appRssPeakMb)} MB peak (${run.appIdleRssMb === null ? "?" : f1(run.appIdleRssMb)} MB before load)`,
      limit: db === "postgres" ? "≤ 300 MB" : "reported (database in process)",
      met: db === "postgres" ? run.appRssPeakMb !== null && run.appRssPeakMb <= 300 : true,
    });
  }
  if (firstLoad) {
    for (const p of firstLoad.pages) {
      checks.push({
        target: `first-load JS ${p.route}${p.exempt ? " (exempt)" : ""}`,
        database: null,
        value: `${f1(p.gzipKb)} KB gzip (${p.overEmptyKb >= 0 ? "+" : ""}${f1(p.overEmptyKb)} KB over the empty page's ${f1(firstLoad.empty?.gzipKb ?? 0)} KB)`,
        limit: p.exempt ? "exempt" : `≤ empty + ${firstLoad.budgetKb} KB`,
        met: p.withinBudget,
      });
    }
  }
  checks.push({ target: "whole run under 15 minutes", database: null, value: `${f1(totalSeconds / 60)} min`, limit: "< 15 min", met: totalSeconds < 15 * 60 });
  return checks;
}

function pad(s: string, n: number, right = false) {
  return right ? s.padStart(n) : s.padEnd(n);
}

/** Markdown table of every measured scenario (also printed to the console). */
export function scenarioTable(runs: DatabaseRun[]): string {
  const head = ["database", "scenario", "server", "req/s (median)", "req/s range (n)", "p50 ms", "p95 ms", "p99 ms", "non-2xx*", "errors*", "RSS peak MB", "CPU ms/req", "load avg", "app/floor"];
  const rows: string[][] = [];
  for (const run of runs) {
    const entries = [...run.results, ...(run.small ? [{ ...run.small, id: `${run.small.id} @ ${run.smallDataset.contracts} contracts` }] : [])];
    for (const r of entries) {
      const q = r.server === "app" ? ratio(run, r.id) : null;
      rows.push([
        run.database,
        r.id,
        r.server,
        r.status === "ok" ? f1(r.rps) : r.status,
        r.status === "ok" && r.rpsSpread ? `${f1(r.rpsSpread.min)}–${f1(r.rpsSpread.max)} (${r.samples!.length}, ±${Math.round(r.rpsSpread.relative * 50)} %)` : "–",
        r.status === "ok" ? f1(r.latencyMs.p50) : "–",
        r.status === "ok" ? f1(r.latencyMs.p95) : "–",
        r.status === "ok" ? f1(r.latencyMs.p99) : "–",
        String(r.non2xx + r.warmupNon2xx + r.probeFailures),
        String(r.errors + r.warmupErrors),
        r.rssPeakMb === null ? "–" : f1(r.rssPeakMb),
        r.serverCpuMsPerRequest === null ? "–" : r.serverCpuMsPerRequest.toFixed(2),
        r.loadAverage === null ? "–" : r.loadAverage.toFixed(1),
        q === null ? "" : `${q.toFixed(2)}×`,
      ]);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const numeric = (i: number) => i >= 3;
  const line = (cells: string[]) => `| ${cells.map((c, i) => pad(c, widths[i]!, numeric(i))).join(" | ")} |`;
  return [line(head), `|${widths.map((w, i) => (numeric(i) ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`, ...rows.map(line)].join("\n");
}

export function targetTable(checks: TargetCheck[]): string {
  const rows = checks.map((c) => [c.met ? "met" : "MISSED", c.database ?? "", c.target, c.value, c.limit]);
  const head = ["", "database", "target", "measured", "limit"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => pad(c, widths[i]!)).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

export function firstLoadTable(report: FirstLoadReport): string {
  const head = ["page", "files", "raw KB", "gzip KB", "over empty KB", "budget"];
  const pages = [...(report.empty ? [report.empty] : []), ...report.pages];
  const rows = pages.map((p) => [
    p.route + (p === report.empty ? " (empty page)" : ""),
    String(p.files),
    f1(p.rawKb),
    f1(p.gzipKb),
    p === report.empty ? "–" : f1(p.overEmptyKb),
    p === report.empty ? "floor" : p.exempt ? "exempt" : p.withinBudget ? "ok" : "OVER",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => pad(c, widths[i]!, i > 0 && i < 5)).join(" | ")} |`;
  return [line(head), `|${widths.map((w, i) => (i > 0 && i < 5 ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`, ...rows.map(line)].join("\n");
}

const esc = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/**
 * Grouped bars of p99 latency per scenario: app and floor, per database. Logarithmic axis, since
 * the embedded database and PostgreSQL differ by an order of magnitude; each bar carries its value.
 */
export function p99Chart(runs: DatabaseRun[]): string {
  const series: { key: string; label: string; color: string }[] = [];
  const palette: Record<string, string> = { "app/postgres": "#1d4ed8", "floor/postgres": "#93c5fd", "app/pglite": "#b45309", "floor/pglite": "#fcd34d" };
  for (const run of runs) {
    for (const server of ["app", "floor"] as const) {
      const key = `${server}/${run.database}`;
      series.push({ key, label: `${server === "app" ? "app" : "floor"} · ${run.database === "postgres" ? "PostgreSQL" : "embedded (PGlite)"}`, color: palette[key] ?? "#888" });
    }
  }
  const scenarioIds: string[] = [];
  for (const run of runs) for (const r of run.results) if (!scenarioIds.includes(r.id)) scenarioIds.push(r.id);
  const smallId = "contracts-offset-0 @ 1,000";
  if (runs.some((r) => r.small)) scenarioIds.push(smallId);
  const value = (id: string, key: string): number | null => {
    const [server, database] = key.split("/");
    const run = runs.find((r) => r.database === database);
    if (!run) return null;
    const r = id === smallId ? (server === "app" ? run.small : null) : run.results.find((x) => x.id === id && x.server === server);
    return r && r.status === "ok" ? r.latencyMs.p99 : null;
  };
  const values = scenarioIds.flatMap((id) => series.map((s) => value(id, s.key))).filter((v): v is number => v !== null && v > 0);
  const maxV = Math.max(10, ...values);
  const minLog = -0; // 1 ms at the baseline
  const maxLog = Math.ceil(Math.log10(maxV));
  const barW = 16;
  const gap = 3;
  const groupW = series.length * (barW + gap) + 24;
  const left = 60;
  const top = 50;
  const plotH = 300;
  const width = Math.max(left + scenarioIds.length * groupW + 150, left + series.length * 190 + 20, 720);
  const height = top + plotH + 130;
  const y = (v: number) => top + plotH - ((Math.log10(Math.max(v, 1)) - minLog) / (maxLog - minLog)) * plotH;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11">`);
  out.push(`<rect width="100%" height="100%" fill="#fff"/>`);
  out.push(`<text x="${left}" y="22" font-size="15" font-weight="600">p99 latency per scenario (ms, log scale) — app vs floor</text>`);
  for (let e = minLog; e <= maxLog; e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v > 10 ** maxLog) continue;
      const yy = y(v);
      out.push(`<line x1="${left}" x2="${width - 10}" y1="${yy}" y2="${yy}" stroke="${m === 1 ? "#cbd5e1" : "#eef2f7"}"/>`);
      out.push(`<text x="${left - 6}" y="${yy + 4}" text-anchor="end" fill="#475569">${v}</text>`);
    }
  }
  scenarioIds.forEach((id, gi) => {
    const gx = left + gi * groupW + 12;
    series.forEach((s, si) => {
      const v = value(id, s.key);
      const x = gx + si * (barW + gap);
      if (v === null) return;
      const yy = y(v);
      out.push(`<rect x="${x}" y="${yy}" width="${barW}" height="${top + plotH - yy}" fill="${s.color}"><title>${esc(`${id} · ${s.label}: p99 ${v} ms`)}</title></rect>`);
      out.push(`<text x="${x + barW / 2}" y="${yy - 3}" text-anchor="middle" font-size="8" fill="#334155">${v >= 100 ? Math.round(v) : v.toFixed(1)}</text>`);
    });
    const cx = gx + (series.length * (barW + gap)) / 2;
    out.push(`<text transform="translate(${cx},${top + plotH + 12}) rotate(30)" fill="#0f172a">${esc(id)}</text>`);
  });
  out.push(`<line x1="${left}" x2="${width - 10}" y1="${top + plotH}" y2="${top + plotH}" stroke="#64748b"/>`);
  series.forEach((s, i) => {
    const lx = left + i * 190;
    out.push(`<rect x="${lx}" y="32" width="10" height="10" fill="${s.color}"/><text x="${lx + 14}" y="41">${esc(s.label)}</text>`);
  });
  out.push(`</svg>`);
  return out.join("\n");
}
