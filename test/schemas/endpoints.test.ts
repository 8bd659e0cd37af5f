import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ENDPOINT_ROUTES } from "@/lib/client/endpoints.generated";
import { pathOf } from "@/lib/client/v1";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { GENERATED_CLIENT_FILE, generatedClientSource } from "@/scripts/generate-client";

// Issue 12: each endpoint is declared once (lib/schemas/endpoints.ts); the handlers, the OpenAPI
// document and the pages' client all follow from that declaration.
describe("the endpoint declarations", () => {
  test("the pages' generated route table is up to date (run `npm run generate:client`)", async () => {
    expect(await readFile(GENERATED_CLIENT_FILE, "utf8")).toBe(generatedClientSource());
    expect(Object.keys(ENDPOINT_ROUTES)).toEqual(Object.keys(ENDPOINTS));
  });

  test("ids are unique operation ids, and each method and path is declared once", () => {
    const keys = Object.values(ENDPOINTS).map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [id, e] of Object.entries(ENDPOINTS)) expect(e.id).toBe(id);
  });

  test("every path parameter in a path is declared in its params schema, and the other way round", () => {
    for (const e of Object.values(ENDPOINTS)) {
      const inPath = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = Object.keys(("params" in e && e.params?.shape) || {}).sort();
      expect({ path: e.path, params: declared }).toEqual({ path: e.path, params: inPath });
    }
  });

  test("each route file under app/v1 serves exactly the endpoints declared for its path", async () => {
    const routeFiles: string[] = [];
    async function walk(dir: string) {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.name === "route.ts" && !full.includes("[...")) routeFiles.push(full);
      }
    }
    await walk("app/v1");
    const declaredPaths = new Set(Object.values(ENDPOINTS).map((e) => e.path as string));
    const filePaths = routeFiles.map((f) => "/" + path.relative("app", path.dirname(f)).replace(/\[(\w+)\]/g, "{$1}"));
    expect(new Set(filePaths)).toEqual(declaredPaths);
    for (const file of routeFiles) {
      const source = await readFile(file, "utf8");
      const used = [...source.matchAll(/ENDPOINTS\.(\w+)/g)].map((m) => m[1]!);
      const filePath = "/" + path.relative("app", path.dirname(file)).replace(/\[(\w+)\]/g, "{$1}");
      const expected = Object.values(ENDPOINTS).filter((e) => e.path === filePath).map((e) => e.id);
      expect({ file, endpoints: [...new Set(used)].sort() }).toEqual({ file, endpoints: [...expected].sort() });
      expect(source).toMatch(/endpointRoute\(/);
    }
  });

  test("the client fills path parameters from the declared path", () => {
    expect(pathOf("updateParticipant", { contract_id: 1, party_id: 22, participant_id: 333 })).toBe("/v1/contracts/1/parties/22/participants/333");
    expect(pathOf("listContracts", {})).toBe("/v1/contracts");
  });
});
