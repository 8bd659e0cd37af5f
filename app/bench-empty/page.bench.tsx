// The framework's floor for page weight: an App Router page with nothing in it. `npm run bench`
// compares every page's first-load JavaScript with this one's (bench/first-load-js.ts).
export default function BenchEmptyPage() {
  return <main />;
}
