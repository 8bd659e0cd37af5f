// BENCH_MEMORY_LOG=<folder> (bench/memory-log.ts): loaded into each benchmark server with
// `--import`, it appends one JSON line a second to BENCH_MEMORY_SAMPLE_FILE: what the process's
// resident memory is made of, seen from inside (V8's heap) and from the kernel (/proc/self/smaps).
// Only the benchmark loads it; the app never does.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { getHeapSpaceStatistics } from "node:v8";

const file = process.env.BENCH_MEMORY_SAMPLE_FILE;
const MB = 1024 * 1024;
const mb = (bytes) => Math.round((bytes / MB) * 10) / 10;

/**
 * Resident kB by kind of mapping: glibc's main memory pool (`[heap]`), other anonymous memory (V8's
 * heap pages, WebAssembly code and memories, thread stacks, other malloc pools), mapped files.
 */
function residentByMapping() {
  const out = { glibcPool: 0, anonymous: 0, files: 0, other: 0 };
  let kind = "other";
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const name = mapping[1];
      kind = name === "[heap]" ? "glibcPool" : name === "" ? "anonymous" : name.startsWith("/") ? "files" : "other";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] += Number(rss[1]);
  }
  return out;
}

function sample() {
  const usage = process.memoryUsage();
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name.replace(/_space$/, ""), s]));
  const mapped = residentByMapping();
  const line = {
    t: Date.now(),
    rss: mb(usage.rss),
    heapCommitted: mb(usage.heapTotal),
    heapUsed: mb(usage.heapUsed),
    oldSpace: mb(spaces.old?.space_size ?? 0),
    codeSpace: mb(spaces.code?.space_size ?? 0),
    largeObjects: mb(spaces.large_object?.space_size ?? 0),
    external: mb(usage.external),
    glibcPool: mb(mapped.glibcPool * 1024),
    anonymous: mb(mapped.anonymous * 1024),
    files: mb(mapped.files * 1024),
  };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

// The file starts empty each time the sampler loads: a folder used again holds only this run.
if (file) {
  writeFileSync(file, "");
  setInterval(sample, 1000).unref();
}
