import { describe, expect, it } from "vitest";
import { ZApiErrorSchema } from "@/lib/schemas";
import { ZErrorCodeListSchema, ZErrorCodeSchema } from "@/lib/schemas/error-code";
import { api, baseUrl } from "@/test/helpers/http";

describe("GET /v1/error_codes", () => {
  it("lists every documented code without credentials, ordered by code", async () => {
    const res = await api("/v1/error_codes", { token: null });
    expect(res.status).toBe(200);
    const body = ZErrorCodeListSchema.parse(res.json);
    const codes = body.data.map((c) => c.error_code);
    expect(codes).toEqual([...codes].sort((a, b) => a - b));
    expect(body.count).toBe(codes.length);
    expect(body.data.find((c) => c.key === "validation_failed")).toMatchObject({ error_code: 4000001, status: 400 });
    expect(body._links.self.href).toBe(`${baseUrl()}/v1/error_codes?limit=100&offset=0`);
  });

  it("resolves the type link of a real error body", async () => {
    const failed = await api("/v1/contracts/abc");
    const type = ZApiErrorSchema.parse(failed.json).type;
    const res = await api(type.replace(baseUrl(), ""), { token: null });
    expect(res.status).toBe(200);
    expect(ZErrorCodeSchema.parse(res.json)).toMatchObject({ error_code: 4000005, key: "invalid_path_id", _links: { self: { href: type } } });
  });

  it("answers 404 for an unknown code and 400 for a malformed one", async () => {
    expect((await api("/v1/error_codes/4049999", { token: null })).json).toMatchObject({ status: 404, error_code: 4040001 });
    expect((await api("/v1/error_codes/abc", { token: null })).json).toMatchObject({ status: 400, error_code: 4000005 });
    expect((await api("/v1/error_codes?limit=all", { token: null })).status).toBe(400);
    expect((await api("/v1/error_codes", { method: "POST", body: {} })).status).toBe(405);
  });
});

describe("GET /v1/openapi.json", () => {
  it("serves the OpenAPI document without credentials, with this server as its server", async () => {
    const res = await api("/v1/openapi.json", { token: null });
    expect(res.status).toBe(200);
    expect(res.json.openapi).toMatch(/^3\.1\./);
    expect(res.json.servers).toEqual([{ url: baseUrl() }]);
    // Paths carry /v1 themselves, so server + path is the real address.
    expect(Object.keys(res.json.paths)).toEqual(expect.arrayContaining(["/v1/contracts", "/v1/contracts/{contract_id}/data_fields"]));
    expect((await api("/v1/openapi.json", { method: "DELETE" })).status).toBe(405);
  });

  // Links from the origin a trusted proxy forwards: test/http/trusted-proxies.test.ts.
});
