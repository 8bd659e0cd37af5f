import { beforeAll, describe, expect, it } from "vitest";
import {
  ZApiErrorSchema,
  ZTemplateListSchema,
  ZTemplateSchema,
  ZTemplateTypeListSchema,
  ZTemplateTypeSchema,
  ZUserListSchema,
  ZWorkspaceListSchema,
} from "@/lib/schemas";
import { api, baseUrl } from "@/test/helpers/http";
import { createHttpReadWorld } from "@/test/http/read-world";

let w: Awaited<ReturnType<typeof createHttpReadWorld>>;
beforeAll(async () => {
  w = await createHttpReadWorld({ contracts: 1 });
});

const ok = async (path: string, email?: string) => {
  const res = await api(path, { email });
  expect(res.status, res.text).toBe(200);
  return res.json;
};
const error = (res: { status: number; json: unknown }, status: number, code: number) => {
  expect(res.status).toBe(status);
  expect(ZApiErrorSchema.parse(res.json).error_code).toBe(code);
};

describe("GET /v1/workspaces", () => {
  it("lists only the caller's workspaces, with contract:create for editors", async () => {
    const editor = ZWorkspaceListSchema.parse(await ok("/v1/workspaces", w.users.editor.email));
    expect(editor.count).toBe(1);
    expect(editor.data).toEqual([expect.objectContaining({ id: w.workspaces.mine.id, country_code: "FI", _permissions: { "contract:create": true } })]);
    const viewer = ZWorkspaceListSchema.parse(await ok("/v1/workspaces", w.users.viewer.email));
    expect(viewer.data.map((x) => x._permissions["contract:create"])).toEqual([false]);
  });

  it("lists every workspace for admins, with next/previous links while paging", async () => {
    const all = ZWorkspaceListSchema.parse(await ok("/v1/workspaces"));
    expect(all.data.every((x) => x._permissions["contract:create"])).toBe(true);
    const page = ZWorkspaceListSchema.parse(await ok("/v1/workspaces?limit=1&offset=1", "admin@example.com"));
    expect(page.count).toBe(all.count);
    expect(page.data.map((x) => x.id)).toEqual([all.data[1]!.id]);
    expect(page._links.previous.href).toBe(`${baseUrl()}/v1/workspaces?limit=1&offset=0`);
    expect(page._links.next.href).toBe(`${baseUrl()}/v1/workspaces?limit=1&offset=2`);
  });
});

describe("GET /v1/users", () => {
  it("shows a member themselves and the people of their workspaces", async () => {
    const body = ZUserListSchema.parse(await ok("/v1/users", w.users.viewer.email));
    expect(body.data.map((u) => u.id).sort((a, b) => a - b)).toEqual([w.users.editor.id, w.users.viewer.id].sort((a, b) => a - b));
    expect(body.count).toBe(2);
  });

  it("shows admins every user", async () => {
    const body = ZUserListSchema.parse(await ok("/v1/users?limit=100"));
    expect(body.count).toBeGreaterThanOrEqual(8);
    expect(body.data.some((u) => u.email === "inactive@example.com" && !u.active)).toBe(true);
    expect(Object.keys(body.data[0]!).sort()).toEqual(["active", "email", "id", "is_admin", "name", "phone_number", "title"]);
  });
});

describe("GET /v1/templates", () => {
  it("lists templates usable in the caller's workspaces, with options and visible workspaces only", async () => {
    const body = ZTemplateListSchema.parse(await ok("/v1/templates", w.users.editor.email));
    expect(body.data.map((t) => t.id)).toEqual([w.templates.template.id]);
    const template = body.data[0]!;
    expect(template.workspaces).toEqual([{ id: w.workspaces.mine.id, name: w.workspaces.mine.name }]);
    expect(template.available_options.delivery_channels.map((o) => o.name)).toEqual(["email", "sms"]);
    expect(template.template_type?.id).toBe(w.type.id);
  });

  it("filters by workspace_id and keeps it in the links; a hidden workspace is empty", async () => {
    const body = ZTemplateListSchema.parse(await ok(`/v1/templates?workspace_id=${w.workspaces.other.id}&limit=1`));
    expect(body.count).toBe(2);
    expect(body._links.next.href).toBe(`${baseUrl()}/v1/templates?workspace_id=${w.workspaces.other.id}&limit=1&offset=1`);
    const hidden = ZTemplateListSchema.parse(await ok(`/v1/templates?workspace_id=${w.workspaces.other.id}`, w.users.editor.email));
    expect(hidden).toMatchObject({ count: 0, data: [] });
    error(await api("/v1/templates?workspace_id=abc"), 400, 4000006);
    error(await api("/v1/templates?limit=all"), 400, 4000006);
  });

  it("gets a visible template; another workspace's template is a 404", async () => {
    const body = ZTemplateSchema.parse(await ok(`/v1/templates/${w.templates.template.id}`, w.users.viewer.email));
    expect(body._links.self.href).toBe(`${baseUrl()}/v1/templates/${w.templates.template.id}`);
    error(await api(`/v1/templates/${w.templates.otherTemplate.id}`, { email: w.users.viewer.email }), 404, 4040001);
    error(await api("/v1/templates/0"), 400, 4000005);
  });
});

describe("GET /v1/template_types", () => {
  it("lists every template type for any caller and gets one", async () => {
    const body = ZTemplateTypeListSchema.parse(await ok("/v1/template_types?limit=100", w.users.viewer.email));
    expect(body.count).toBeGreaterThanOrEqual(6);
    const mine = body.data.find((t) => t.id === w.type.id);
    expect(mine?._links.self.href).toBe(`${baseUrl()}/v1/template_types/${w.type.id}`);
    expect(ZTemplateTypeSchema.parse(await ok(`/v1/template_types/${w.type.id}`, w.users.outsider.email))).toEqual(mine);
    error(await api("/v1/template_types/2147483647"), 404, 4040001);
    error(await api("/v1/template_types/1e3"), 400, 4000005);
  });

  it("pages: offset past the end is empty with the same count; limit=all is a 400", async () => {
    const first = ZTemplateTypeListSchema.parse(await ok("/v1/template_types?limit=1"));
    expect(first._links).toMatchObject({
      self: { href: `${baseUrl()}/v1/template_types?limit=1&offset=0` },
      next: { href: `${baseUrl()}/v1/template_types?limit=1&offset=1` },
      previous: { href: null },
    });
    const past = ZTemplateTypeListSchema.parse(await ok("/v1/template_types?offset=19900"));
    expect(past).toMatchObject({ count: first.count, data: [] });
    error(await api("/v1/template_types?limit=all"), 400, 4000006);
    error(await api("/v1/template_types?limit=1.5"), 400, 4000006);
  });
});

describe("methods and credentials", () => {
  it.each([
    ["/v1/workspaces", "GET"],
    ["/v1/users", "GET"],
    ["/v1/templates", "GET"],
    ["/v1/templates/1", "GET, PUT"],
    ["/v1/template_types", "GET"],
    ["/v1/template_types/1", "GET"],
  ])("POST %s is a 405 (Allow: %s)", async (path, allow) => {
    const res = await api(path, { method: "POST", body: {} });
    error(res, 405, 4050000);
    expect(res.headers.get("allow")).toBe(allow);
  });

  it.each(["/v1/workspaces", "/v1/users", "/v1/templates", "/v1/template_types"])("GET %s needs valid credentials", async (path) => {
    error(await api(path, { token: "wrong-token-0123456789abcdef" }), 401, 4010002);
    error(await api(path, { email: "ghost@example.invalid" }), 401, 4010003);
  });
});
