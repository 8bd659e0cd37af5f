// Security headers of every response (the pages' Content-Security-Policy, which needs a nonce per
// request, is set by proxy.ts). See docs/security.md.
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Never framed (clickjacking); CSP frame-ancestors says the same to browsers that read it.
  { key: "X-Frame-Options", value: "DENY" },
  // Same-origin requests keep the full referrer; other sites get none (URLs carry contract ids).
  { key: "Referrer-Policy", value: "same-origin" },
  // Powerful features the app never uses, off for it and anything it might embed.
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
  // A window opened from another site cannot script ours, and our answers are not embedded elsewhere.
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
];

// JSON answers are never documents: if a browser is ever made to render one, nothing runs.
const jsonRouteCsp = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Several builds side by side (parallel work, benchmarks) each get their own folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
  // Benchmark fixtures (`*.bench.tsx`/`*.bench.ts`, e.g. app/bench-empty) are routes only in the
  // benchmark's own build; a production build does not contain them.
  pageExtensions: process.env.BENCH_PAGES === "1" ? ["tsx", "ts", "bench.tsx", "bench.ts"] : ["tsx", "ts"],
  poweredByHeader: false,
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
      { source: "/v1/:path*", headers: [{ key: "Content-Security-Policy", value: jsonRouteCsp }] },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: jsonRouteCsp }] },
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
