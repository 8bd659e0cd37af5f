// BENCH_MEMORY_LOG=<folder>: every server of the run (app, reference route, floor) samples what its
// memory is made of once a second (bench/memory-sampler.mjs) into <folder>/<server>.jsonl, and the
// report gets a table of it at each server's peak and at its end (docs/performance.md "Memory").
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./config";

const FOLDER = process.env.BENCH_MEMORY_LOG ? path.resolve(process.env.BENCH_MEMORY_LOG) : null;
const SAMPLER = path.join(ROOT, "bench", "memory-sampler.mjs");

interface TMemorySample {
  t: number;
  rss: number;
  heapCommitted: number;
  heapUsed: number;
  oldSpace: number;
  codeSpace: number;
  largeObjects: number;
  external: number;
  glibcPool: number;
  anonymous: number;
  files: number;
}

/** The node arguments and environment that make server `name` sample its memory (none without the knob). */
export function memoryLogFor(name: string): { args: string[]; env: Record<string, string> } {
  if (!FOLDER) return { args: [], env: {} };
  mkdirSync(FOLDER, { recursive: true });
  return { args: ["--import", SAMPLER], env: { BENCH_MEMORY_SAMPLE_FILE: path.join(FOLDER, `${name}.jsonl`) } };
}

/** Reads one server's samples; a line cut short by the server's end is skipped. */
function readMemorySamples(file: string): TMemorySample[] {
  const samples: TMemorySample[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line) continue;
    try {
      samples.push(JSON.parse(line) as TMemorySample);
    } catch {
      // the last line of a process that was stopped while writing it
    }
  }
  return samples;
}

const columns = (s: TMemorySample) => [
  s.rss,
  `${s.heapCommitted} (${s.heapUsed})`,
  s.oldSpace,
  s.codeSpace,
  s.largeObjects,
  s.glibcPool,
  // V8's heap pages are anonymous mappings too: what is left is WebAssembly, stacks and other pools
  // (about: V8's committed heap is not all resident, so this can come out a little low).
  Math.max(0, Math.round((s.anonymous - s.heapCommitted) * 10) / 10),
  s.files,
];

/** Markdown rows: each server's sample at its RSS peak and its last one (null without the knob or samples). */
export function memoryLogTable(): { header: string[]; rows: (string | number)[][] } | null {
  if (!FOLDER || !existsSync(FOLDER)) return null;
  const rows: (string | number)[][] = [];
  for (const file of readdirSync(FOLDER).filter((f) => f.endsWith(".jsonl")).sort()) {
    const samples = readMemorySamples(path.join(FOLDER, file));
    if (samples.length === 0) continue;
    const peak = samples.reduce((a, b) => (b.rss > a.rss ? b : a));
    const last = samples[samples.length - 1]!;
    const server = file.replace(/\.jsonl$/, "");
    rows.push([server, "peak", samples.length, ...columns(peak)]);
    rows.push([server, "end", "", ...columns(last)]);
  }
  if (rows.length === 0) return null;
  return {
    header: [
      "server",
      "when",
      "samples",
      "RSS MB",
      "V8 heap committed (used) MB",
      "old space MB",
      "code space MB",
      "large objects MB",
      "glibc main pool MB",
      "other anonymous MB (about)",
      "mapped files MB",
    ],
    rows,
  };
}
