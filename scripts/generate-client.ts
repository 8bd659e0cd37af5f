// Writes lib/client/endpoints.generated.ts: the method and path of every endpoint declared in
// lib/schemas/endpoints.ts, for the pages' typed client. The pages must not import the
// declarations themselves (they hold every zod schema: ~90 KB gzipped in each page's bundle), so
// the little they need at run time is generated; their types come from the declarations with
// type-only imports. `npm run generate:client` after changing an endpoint; a test fails when the
// generated file is stale.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { ENDPOINTS } from "../lib/schemas/endpoints.ts";

export const GENERATED_CLIENT_FILE = path.join(import.meta.dirname, "..", "lib", "client", "endpoints.generated.ts");

export function generatedClientSource(): string {
  const rows = Object.entries(ENDPOINTS).map(([id, e]) => `  ${id}: { method: ${JSON.stringify(e.method)}, path: ${JSON.stringify(e.path)} },`);
  return `// Generated from lib/schemas/endpoints.ts by \`npm run generate:client\`. Do not edit.
import type { TEndpoints } from "@/lib/schemas/endpoints";

export const ENDPOINT_ROUTES = {
${rows.join("\n")}
} as const satisfies { [K in keyof TEndpoints]: Pick<TEndpoints[K], "method" | "path"> };
`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await writeFile(GENERATED_CLIENT_FILE, generatedClientSource());
  console.log(`wrote ${path.relative(process.cwd(), GENERATED_CLIENT_FILE)}`);
}
