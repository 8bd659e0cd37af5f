// The security headers of every response and the JSON routes' Content-Security-Policy, shared with
// the front door (server.mjs); the pages' policy, which needs a nonce per request, is set by
// proxy.ts. See docs/security.md.
import { JSON_ROUTE_CSP, SECURITY_HEADERS } from "./lib/http/security-headers.ts";

const securityHeaders = Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value }));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Several builds side by side (parallel work, benchmarks) each get their own folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
  // Benchmark fixtures (`*.bench.tsx`/`*.bench.ts`, e.g. app/bench-empty) are routes only in the
  // benchmark's own build; a production build does not contain them.
  pageExtensions: process.env.BENCH_PAGES === "1" ? ["tsx", "ts", "bench.tsx", "bench.ts"] : ["tsx", "ts"],
  poweredByHeader: false,
  // Compression is the reverse proxy's job (it sees the client and can cache what it compressed):
  // the server sends every answer as it is, through Next and through the API lane alike.
  compress: false,
  // A page's or route's server code is loaded at its first request, not all at start (Next's
  // default): the API lane never needs the pages' React code. docs/performance.md, "Memory".
  experimental: { preloadEntriesOnStart: false },
  // PGlite and its socket server load WebAssembly and data files at run time: keep them out of
  // the server bundle and load them from node_modules.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pg",
  ],
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      { source: "/v1/:path*", headers: [{ key: "Content-Security-Policy", value: JSON_ROUTE_CSP }] },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: JSON_ROUTE_CSP }] },
      // HSTS only where the answer really travels over https (the TLS-terminating proxy says so);
      // proxy.ts adds it to pages for PUBLIC_URL=https:… too. Browsers ignore it over http anyway.
      {
        source: "/:path*",
        has: [{ type: "header", key: "x-forwarded-proto", value: "https(?:\\s*,.*)?" }],
        headers: [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }],
      },
    ];
  },
};

export default nextConfig;
