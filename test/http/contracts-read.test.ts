import { beforeAll, describe, expect, it } from "vitest";
import {
  ZApiErrorSchema,
  ZContractListSchema,
  ZContractSchema,
  ZDataFieldListSchema,
  ZDataFieldSchema,
  ZParticipantSchema,
  ZPartyListSchema,
  ZPartySchema,
} from "@/lib/schemas";
import { createContract, createTemplate, createWorkspace } from "@/lib/db/seed/factories";
import { api, baseUrl, serverDb } from "@/test/helpers/http";
import { createHttpReadWorld } from "@/test/http/read-world";

let w: Awaited<ReturnType<typeof createHttpReadWorld>>;
beforeAll(async () => {
  w = await createHttpReadWorld({ contracts: 7 });
});

const ok = async (path: string, email?: string) => {
  const res = await api(path, { email });
  expect(res.status, res.text).toBe(200);
  return res;
};
const error = (res: { status: number; json: unknown }, status: number, code: number) => {
  expect(res.status).toBe(status);
  expect(ZApiErrorSchema.parse(res.json).error_code).toBe(code);
};

describe("GET /v1/contracts", () => {
  it("lists a workspace's contracts with a parties summary, in the list shape", async () => {
    const res = await ok(`/v1/contracts?workspace_id=${w.workspaces.mine.id}`);
    const body = ZContractListSchema.parse(res.json);
    expect(body.count).toBe(7);
    expect(body.data.map((c) => c.id)).toEqual(w.contracts.map((c) => c.id));
    const first = body.data[0]!;
    expect(first.parties.map((p) => p.type)).toEqual(["company", "company", "individual"]);
    expect(first.parties[0]).not.toHaveProperty("participants");
    expect(first._links.self.href).toBe(`${baseUrl()}/v1/contracts/${first.id}`);
    expect(first.created_time).toMatch(/\+00:00$/);
    expect(body._links).toEqual({
      self: { href: `${baseUrl()}/v1/contracts?workspace_id=${w.workspaces.mine.id}&sort=id&limit=100&offset=0` },
      next: { href: null },
      previous: { href: null },
    });
  });

  it("follows next through every item once, keeping filters and sort in the links", async () => {
    const seen: number[] = [];
    let href: string | null = `/v1/contracts?workspace_id=${w.workspaces.mine.id}&state=draft&sort=-name&limit=2`;
    let pages = 0;
    while (href) {
      const body = ZContractListSchema.parse((await ok(href.replace(baseUrl(), ""))).json);
      expect(body.count).toBe(6);
      seen.push(...body.data.map((c) => c.id));
      for (const link of [body._links.self.href, body._links.next.href, body._links.previous.href]) {
        if (link === null) continue;
        const url = new URL(link);
        expect(url.origin).toBe(baseUrl());
        expect(Object.fromEntries(url.searchParams)).toMatchObject({ workspace_id: String(w.workspaces.mine.id), state: "draft", sort: "-name", limit: "2" });
      }
      expect(body._links.previous.href === null).toBe(pages === 0);
      href = body._links.next.href;
      pages++;
    }
    expect(pages).toBe(3);
    // -name is Z…A by name, which these names make the reverse of creation; contract 0 is signed.
    expect(seen).toEqual(w.contracts.slice(1).map((c) => c.id));
  });

  it("answers an offset past the end with no items and the same count", async () => {
    const body = ZContractListSchema.parse((await ok(`/v1/contracts?workspace_id=${w.workspaces.mine.id}&offset=500`)).json);
    expect(body).toMatchObject({ count: 7, data: [] });
    expect(body._links.next.href).toBeNull();
    expect(body._links.previous.href).toContain("offset=400");
  });

  it("limits the list and its count to the caller's workspaces", async () => {
    const editor = ZContractListSchema.parse((await ok("/v1/contracts", w.users.editor.email)).json);
    expect(editor.count).toBe(7);
    expect(editor.data.every((c) => c.workspace_id === w.workspaces.mine.id)).toBe(true);
    const filtered = ZContractListSchema.parse((await ok(`/v1/contracts?workspace_id=${w.workspaces.other.id}`, w.users.editor.email)).json);
    expect(filtered).toMatchObject({ count: 0, data: [] });
  });

  it("limits the demo editor to Sales and Legal Norway", async () => {
    const workspaces = (await ok("/v1/workspaces", "editor@example.com")).json.data as { id: number; name: string }[];
    expect(workspaces.map((x) => x.name).sort()).toEqual(["Legal Norway", "Sales"]);
    const body = ZContractListSchema.parse((await ok("/v1/contracts?limit=100", "editor@example.com")).json);
    const allowed = new Set(workspaces.map((x) => x.id));
    expect(body.data.every((c) => allowed.has(c.workspace_id))).toBe(true);
    const admin = ZContractListSchema.parse((await ok("/v1/contracts?limit=1", "admin@example.com")).json);
    expect(body.count).toBeLessThan(admin.count);
  });

  it.each([
    ["limit=all", "limit"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["offset=19901", "offset"],
    ["offset=-1", "offset"],
    ["sort=title", "sort"],
    ["state=archived", "state"],
    ["workspace_id=0", "workspace_id"],
  ])("answers %s with 400 naming the parameter", async (q, name) => {
    const res = await api(`/v1/contracts?${q}`);
    error(res, 400, 4000006);
    expect(Object.keys(res.json.parameter_problems)).toEqual([name]);
  });

  it("accepts the bounds of limit and offset", async () => {
    expect((await api("/v1/contracts?limit=1&offset=19900")).json).toMatchObject({ data: [] });
    expect((await api("/v1/contracts?limit=100")).status).toBe(200);
  });
});

describe("GET /v1/contracts: every sort, as whole id sequences", () => {
  // Six contracts in a workspace of their own whose order under each sort differs from id order and
  // from each other's; Bravo is there twice and two updated times are equal, so the id tie-break
  // shows too. Times are minutes after 2024-01-01.
  const FIXTURES = [
    { name: "Delta", created: 3, updated: 2 },
    { name: "Bravo", created: 5, updated: 0 },
    { name: "Foxtrot", created: 0, updated: 4 },
    { name: "Alpha", created: 4, updated: 5 },
    { name: "Bravo", created: 1, updated: 2 },
    { name: "Echo", created: 2, updated: 1 },
  ];
  /** Each ascending order as fixture indexes, worked out by hand (ties by index = id). */
  const ASCENDING = {
    id: [0, 1, 2, 3, 4, 5],
    name: [3, 1, 4, 0, 5, 2],
    created_time: [2, 4, 5, 0, 3, 1],
    updated_time: [1, 5, 0, 4, 2, 3],
  } as const;
  let workspaceId: number;
  const ids: number[] = [];

  beforeAll(async () => {
    const base = Date.parse("2024-01-01T00:00:00Z");
    await serverDb().$transaction(
      async (tx) => {
        const workspace = await createWorkspace(tx);
        workspaceId = workspace.id;
        const template = await createTemplate(tx, { workspaceIds: [workspace.id] });
        for (const fixture of FIXTURES) {
          const row = await createContract(tx, { workspaceId, templateId: template.id, name: fixture.name, createdAt: new Date(base + fixture.created * 60_000) });
          await tx.contract.update({ where: { id: row.id }, data: { updatedAt: new Date(base + fixture.updated * 60_000) } });
          ids.push(row.id);
        }
      },
      { timeout: 60_000 },
    );
  });

  it.each(Object.keys(ASCENDING) as (keyof typeof ASCENDING)[])("sort=%s and its reverse answer exactly the expected ids", async (sort) => {
    const expected = ASCENDING[sort].map((i) => ids[i]!);
    if (sort !== "id") expect(expected, "the fixture must order differently from id").not.toEqual(ids);
    const asc = ZContractListSchema.parse((await ok(`/v1/contracts?workspace_id=${workspaceId}&sort=${sort}`)).json);
    expect(asc.data.map((c) => c.id)).toEqual(expected);
    const desc = ZContractListSchema.parse((await ok(`/v1/contracts?workspace_id=${workspaceId}&sort=-${sort}`)).json);
    expect(desc.data.map((c) => c.id)).toEqual([...expected].reverse());
  });

  it("keeps the order across pages (limit=4) for -updated_time", async () => {
    const first = ZContractListSchema.parse((await ok(`/v1/contracts?workspace_id=${workspaceId}&sort=-updated_time&limit=4`)).json);
    const second = ZContractListSchema.parse((await ok(`/v1/contracts?workspace_id=${workspaceId}&sort=-updated_time&limit=4&offset=4`)).json);
    expect([...first.data, ...second.data].map((c) => c.id)).toEqual(ASCENDING.updated_time.map((i) => ids[i]!).reverse());
  });
});

describe("GET /v1/contracts/{contract_id}", () => {
  it("answers the contract with full parties and links", async () => {
    const id = w.contracts[1]!.id;
    const body = ZContractSchema.parse((await ok(`/v1/contracts/${id}`, w.users.viewer.email)).json);
    expect(body._links.parties.href).toBe(`${baseUrl()}/v1/contracts/${id}/parties`);
    expect(body._links.data_fields.href).toBe(`${baseUrl()}/v1/contracts/${id}/data_fields`);
    const [owner, company, individual] = body.parties;
    expect(owner).toMatchObject({ my_party: true, type: "company" });
    expect(company).toMatchObject({ type: "company", name: "Buyer AB", participants: [{ name: "Ann" }, { name: "Bo" }] });
    expect(individual).toMatchObject({ type: "individual", name: "Cecilia", identification_number: "19800101-1234", participant: { name: "Cecilia" } });
  });

  it("marks the caller's own participant", async () => {
    const body = ZContractSchema.parse((await ok(`/v1/contracts/${w.contracts[1]!.id}`, w.users.editor.email)).json);
    const owner = body.parties[0]!;
    expect(owner.type === "company" && owner.participants.map((p) => p.my_participant)).toEqual([true]);
  });

  it("answers 404 for another workspace's contract and one that does not exist", async () => {
    error(await api(`/v1/contracts/${w.hidden.id}`, { email: w.users.editor.email }), 404, 4040001);
    error(await api("/v1/contracts/2147483647"), 404, 4040001);
    expect((await api(`/v1/contracts/${w.hidden.id}`)).status).toBe(200);
  });

  it.each(["0", "-1", "abc", "1.5", "01", "2147483648", "99999999999"])("answers id %s with 400", async (id) => {
    error(await api(`/v1/contracts/${id}`), 400, 4000005);
  });
});

describe("parties and participants", () => {
  it("lists the parties with links; limit=all returns every one without next/previous", async () => {
    const id = w.contracts[2]!.id;
    const body = ZPartyListSchema.parse((await ok(`/v1/contracts/${id}/parties?limit=all`)).json);
    expect(body.count).toBe(3);
    expect(body.data).toHaveLength(3);
    expect(body._links).toEqual({
      self: { href: `${baseUrl()}/v1/contracts/${id}/parties?limit=all&offset=0` },
      next: { href: null },
      previous: { href: null },
    });
    expect(body.data[1]!._links?.self.href).toBe(`${baseUrl()}/v1/contracts/${id}/parties/${body.data[1]!.id}`);
    const paged = ZPartyListSchema.parse((await ok(`/v1/contracts/${id}/parties?limit=1&offset=1`)).json);
    expect(paged.data.map((p) => p.id)).toEqual([body.data[1]!.id]);
    expect(paged._links.next.href).toBe(`${baseUrl()}/v1/contracts/${id}/parties?limit=1&offset=2`);
  });

  it("gets a party and a participant, with _links and an ETag", async () => {
    const id = w.contracts[2]!.id;
    const parties = ZPartyListSchema.parse((await ok(`/v1/contracts/${id}/parties`)).json).data;
    const company = parties[1]!;
    const party = ZPartySchema.parse((await ok(`/v1/contracts/${id}/parties/${company.id}`, w.users.viewer.email)).json);
    expect(party).toEqual(company);
    if (party.type !== "company") throw new Error("expected the company");
    const participantId = party.participants[1]!.id;
    const path = `/v1/contracts/${id}/parties/${party.id}/participants/${participantId}`;
    const res = await ok(path, w.users.viewer.email);
    const participant = ZParticipantSchema.parse(res.json);
    expect(participant).toMatchObject({ id: participantId, name: "Bo" });
    expect(participant._links).toEqual({
      contract: { href: `${baseUrl()}/v1/contracts/${id}` },
      party: { href: `${baseUrl()}/v1/contracts/${id}/parties/${party.id}` },
      self: { href: `${baseUrl()}${path}` },
    });
    expect(res.headers.get("etag")).toMatch(new RegExp(`^(W/)?"p${participantId}-v\\d+"$`));
  });

  it("answers 404 when the path's chain does not hold, and 400 for a bad id anywhere in it", async () => {
    const [a, b] = [w.contracts[3]!.id, w.contracts[4]!.id];
    const partyOfA = ZPartyListSchema.parse((await ok(`/v1/contracts/${a}/parties`)).json).data[2]!;
    if (partyOfA.type !== "individual") throw new Error("expected the individual");
    error(await api(`/v1/contracts/${b}/parties/${partyOfA.id}`), 404, 4040001);
    error(await api(`/v1/contracts/${b}/parties/${partyOfA.id}/participants/${partyOfA.participant.id}`), 404, 4040001);
    error(await api(`/v1/contracts/${a}/parties/${partyOfA.id}/participants/2147483647`), 404, 4040001);
    error(await api(`/v1/contracts/${w.hidden.id}/parties`, { email: w.users.editor.email }), 404, 4040001);
    error(await api(`/v1/contracts/${a}/parties/x`), 400, 4000005);
    error(await api(`/v1/contracts/${a}/parties/${partyOfA.id}/participants/0`), 400, 4000005);
    error(await api(`/v1/contracts/${a}/parties?limit=101`), 400, 4000006);
  });
});

describe("data fields", () => {
  it("lists a contract's data fields (limit=all allowed) and gets one", async () => {
    const id = w.contracts[0]!.id;
    const all = ZDataFieldListSchema.parse((await ok(`/v1/contracts/${id}/data_fields?limit=all`, w.users.viewer.email)).json);
    expect(all.count).toBe(3);
    expect(all.data.map((f) => [f.name, f.value])).toEqual([["Start", ""], ["Term", "12"], ["Fee", ""]]);
    expect(all._links.next.href).toBeNull();
    const page = ZDataFieldListSchema.parse((await ok(`/v1/contracts/${id}/data_fields?limit=2`)).json);
    expect(page.count).toBe(3);
    expect(page._links.next.href).toBe(`${baseUrl()}/v1/contracts/${id}/data_fields?limit=2&offset=2`);
    const field = all.data[1]!;
    const one = ZDataFieldSchema.parse((await ok(`/v1/contracts/${id}/data_fields/${field.id}`)).json);
    expect(one).toEqual(field);
    expect(one._links.contract.href).toBe(`${baseUrl()}/v1/contracts/${id}`);
    error(await api(`/v1/contracts/${w.contracts[1]!.id}/data_fields/${field.id}`), 404, 4040001);
    error(await api(`/v1/contracts/${id}/data_fields/abc`), 400, 4000005);
    error(await api(`/v1/contracts/${w.hidden.id}/data_fields`, { email: w.users.viewer.email }), 404, 4040001);
  });
});

describe("methods and credentials", () => {
  it.each([
    ["POST", "/v1/contracts", "GET"],
    ["PATCH", "/v1/contracts/1", "GET, DELETE"],
    ["PUT", "/v1/contracts/1/parties", "GET, POST"],
    ["PATCH", "/v1/contracts/1/parties/1", "GET, DELETE"],
    ["GET", "/v1/contracts/1/parties/1/participants", "POST"],
    ["PATCH", "/v1/contracts/1/parties/1/participants/1", "GET, PUT, DELETE"],
    ["POST", "/v1/contracts/1/data_fields", "GET"],
    ["DELETE", "/v1/contracts/1/data_fields/1", "GET, PUT"],
  ])("%s %s is a 405 with Allow: %s", async (method, path, allow) => {
    const res = await api(path, { method, body: method === "DELETE" || method === "GET" ? undefined : {} });
    error(res, 405, 4050000);
    expect(res.headers.get("allow")).toBe(allow);
  });

  it("answers 401 for a bad token or an unknown e-mail", async () => {
    const id = w.contracts[0]!.id;
    error(await api(`/v1/contracts/${id}`, { token: "not-a-valid-token-at-all" }), 401, 4010002);
    error(await api(`/v1/contracts/${id}`, { token: null }), 401, 4010001);
    error(await api("/v1/contracts", { email: "nobody@example.invalid" }), 401, 4010003);
  });
});
