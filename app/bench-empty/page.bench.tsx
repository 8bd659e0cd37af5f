// The framework's floor for page weight: an App Router page with nothing in it. `npm run bench`
// compares every page's first-load JavaScript with this one's (bench/first-load-js.ts). A
// `.bench.tsx` page exists only in the benchmark's build (BENCH_PAGES=1, next.config.mjs), never in
// production.
export default function BenchEmptyPage() {
  return <main />;
}
