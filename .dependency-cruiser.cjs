// The dependency rules of docs/architecture.md ("Layers"), checked by test/architecture/dependency-rules.test.ts.
// Dependencies point one way: app → lib/api (HTTP) → lib/services (rules) → lib/domain (pure) and lib/db.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import cycles, type-only imports included.",
      from: {},
      to: { circular: true },
    },
    {
      name: "services-not-http",
      severity: "error",
      comment: "The services are the rules: they know no HTTP (lib/api), no sign-in (lib/auth), no Next.",
      from: { path: "^lib/services/" },
      to: { path: ["^lib/api/", "^lib/auth/", "^lib/http/", "^app/", "^node_modules/next/"] },
    },
    {
      name: "domain-is-pure",
      severity: "error",
      comment: "lib/domain imports only itself (and Node's own modules, e.g. node:crypto for token hashes).",
      from: { path: "^lib/domain/" },
      to: { pathNot: ["^lib/domain/"], dependencyTypesNot: ["core"] },
    },
    {
      name: "db-below-everything",
      severity: "error",
      comment: "The database opener and its seeds import nothing above them.",
      from: { path: "^lib/db/" },
      to: { path: ["^lib/api/", "^lib/services/", "^lib/auth/", "^lib/http/", "^app/"] },
    },
    {
      name: "schemas-shared-and-low",
      severity: "error",
      comment: "lib/schemas is the one zod module: it may use zod and lib/domain's enums, nothing above.",
      from: { path: "^lib/schemas/" },
      to: { path: ["^lib/api/", "^lib/services/", "^lib/db/", "^lib/auth/", "^lib/http/", "^app/"] },
    },
    {
      name: "auth-below-api",
      severity: "error",
      comment: "lib/api authenticates through lib/auth; lib/auth never reaches back into lib/api.",
      from: { path: "^lib/auth/" },
      to: { path: ["^lib/api/", "^app/"] },
    },
    {
      name: "client-is-browser-code",
      severity: "error",
      comment: "lib/client runs in the browser: no server layers.",
      from: { path: "^lib/client/" },
      to: { path: ["^lib/api/", "^lib/services/", "^lib/db/", "^lib/auth/"] },
    },
    {
      name: "lib-not-app",
      severity: "error",
      comment: "Nothing in lib imports the routes and pages.",
      from: { path: "^lib/" },
      to: { path: "^app/" },
    },
    {
      name: "lib-not-server",
      severity: "error",
      comment: "server/ starts the process and imports lib; lib never imports it back (one copy of each constant, in lib).",
      from: { path: "^lib/" },
      to: { path: "^server/" },
    },
    {
      name: "answers-are-http",
      severity: "error",
      comment: "lib/api/json writes the API's answers (links included): only the routes and lib/api use it, never services, domain or pages.",
      from: { pathNot: ["^lib/api/", "^app/v1/"] },
      to: { path: "^lib/api/json/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["^lib/generated/", "^node_modules/", "^\\.next"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"] },
  },
};
