/** @type {import('next').NextConfig} */
const nextConfig = {
  // Several builds side by side (parallel work, benchmarks) each get their own folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
  poweredByHeader: false,
  // PGlite and its socket server load WebAssembly and data files at run time: keep them out of
  // the server bundle and load them from node_modules.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pg",
  ],
};

export default nextConfig;
