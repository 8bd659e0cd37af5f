// GET /v1/contracts?q= on the production server (docs/api.md "Finding contracts"): contracts made
// and changed through the API (its raw-SQL insert, the data field PUT) are found by a party, a
// person, an address and part of a number; `relevance` is the default and the links keep it;
// `_search` marks the words; another workspace's contracts are never listed, counted or exported.
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, test } from "vitest";
import { api } from "@/test/helpers/http";
import { createHttpReadWorld } from "@/test/http/read-world";

type World = Awaited<ReturnType<typeof createHttpReadWorld>>;
let w: World;
const tag = `S${Date.now().toString(36)}`;
const ids: Record<"mine" | "theirs", number> = { mine: 0, theirs: 0 };

async function create(workspaceId: number, templateId: number, email: string, company: string, person: { name: string; email: string }) {
  const res = await api("/v1/contracts/create", {
    email,
    body: { workspace_id: workspaceId, template_id: templateId, name: `${tag} agreement`, parties: [{ type: "company", name: company, participants: [person] }] },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.id as number;
}

beforeAll(async () => {
  w = await createHttpReadWorld({ contracts: 0 });
  ids.mine = await create(w.workspaces.mine.id, w.templates.template.id, w.users.editor.email, `${tag} Fjordline AS`, { name: "Greta Lindqvist", email: `greta.${tag}@fjordline.example` });
  ids.theirs = await create(w.workspaces.other.id, w.templates.otherTemplate.id, w.users.outsider.email, `${tag} Fjordline AS`, { name: "Greta Lindqvist", email: `greta.${tag}@other.example` });
  const put = await api(`/v1/contracts/${ids.mine}/data_fields/c::start`, { method: "PUT", email: w.users.editor.email, body: { value: `PO-${tag}-4411` } });
  expect(put.status, put.text).toBe(200);
});

/** A search whose items say where they matched (`matches=true`). */
const search = (q: string, email: string, more = "") => api(`/v1/contracts?q=${encodeURIComponent(q)}&matches=true${more}`, { email });

describe("GET /v1/contracts?q=", () => {
  test("finds a party, a person, an address and part of a number, best first, and says where", async () => {
    const byNumber = await search(`${tag}-4411`, w.users.editor.email);
    expect(byNumber.status).toBe(200);
    expect(byNumber.json.data.map((c: { id: number }) => c.id)).toEqual([ids.mine]);
    expect(byNumber.json.data[0]._search).toEqual({ matches: [{ field: "data_field", label: "Start", highlight: ["PO-", `${tag}-4411`, ""] }] });
    // Far fewer than SEARCH_MATCH_LIMIT match: the count is exact, and says so (a list without q never carries it).
    expect(byNumber.json.count_exact).toBe(true);
    expect((await api("/v1/contracts?limit=1", { email: w.users.editor.email })).json).not.toHaveProperty("count_exact");
    // The default order while searching is relevance, and the links say so.
    expect(new URL(byNumber.json._links.self.href).searchParams.get("sort")).toBe("relevance");
    expect((await search(`greta.${tag}@fjordline.example`, w.users.editor.email)).json.data[0]._search.matches).toEqual([
      { field: "participant_email", label: null, highlight: ["", `greta.${tag}@fjordline.example`, ""] },
    ]);
    const byParty = await search(`${tag} fjordline`, w.users.editor.email);
    expect(byParty.json.data[0]._search.matches.map((m: { field: string }) => m.field)).toEqual(["name", "party", "participant_email", "data_field"]);
    // The links keep asking for the matches.
    expect(new URL(byParty.json._links.self.href).searchParams.get("matches")).toBe("true");
  });

  test("says where each contract matched only when asked (matches=true), and refuses matches without q", async () => {
    const asked = await search(`${tag} fjordline`, w.users.editor.email);
    const plain = await api(`/v1/contracts?q=${encodeURIComponent(`${tag} fjordline`)}`, { email: w.users.editor.email });
    expect(plain.status).toBe(200);
    expect(plain.json.data.map((c: { id: number; _search?: unknown }) => [c.id, c._search])).toEqual([[ids.mine, undefined]]);
    expect([plain.json.count, plain.json.count_exact]).toEqual([asked.json.count, asked.json.count_exact]);
    for (const [query, problem] of [
      ["matches=true", "matches needs q"],
      ["matches=yes&q=x", "must be true (leave it out for items without _search)"],
    ] as const) {
      const refused = await api(`/v1/contracts?${query}`, { email: w.users.editor.email });
      expect(refused.status, query).toBe(400);
      expect(refused.json.parameter_problems, query).toEqual({ matches: [problem] });
    }
  });

  test("never lists, counts or exports another workspace's contract", async () => {
    const mine = await search(`${tag} Greta`, w.users.editor.email);
    expect([mine.json.count, mine.json.data.map((c: { id: number }) => c.id)]).toEqual([1, [ids.mine]]);
    const theirs = await search(`${tag} Greta`, w.users.outsider.email);
    expect([theirs.json.count, theirs.json.data.map((c: { id: number }) => c.id)]).toEqual([1, [ids.theirs]]);
    expect((await search(`${tag}-4411`, w.users.outsider.email)).json.count).toBe(0);
    const csv = await api(`/v1/contracts/export.csv?q=${encodeURIComponent(`${tag} Greta`)}`, { email: w.users.outsider.email });
    expect(csv.status).toBe(200);
    expect((parse(csv.text, { bom: true, columns: true }) as { id: string }[]).map((r) => Number(r.id))).toEqual([ids.theirs]);
  });

  test("sort=relevance without q is a 400 naming sort", async () => {
    const res = await api("/v1/contracts?sort=relevance", { email: w.users.editor.email });
    expect(res.status).toBe(400);
    expect(res.json.parameter_problems).toEqual({ sort: ["relevance needs q"] });
  });

  test("more than 30 \"-\" before words (words left out, deeper than PostgreSQL's search reads) is a 400 naming q, on the list and the CSV", async () => {
    for (const path of ["/v1/contracts", "/v1/contracts/export.csv"]) {
      for (const q of [`${"-".repeat(33)}sales`, `${"- ".repeat(33)}sales`, `x ${"- ".repeat(31)}sales`]) {
        const res = await api(`${path}?q=${encodeURIComponent(q)}`, { email: w.users.editor.email });
        expect([path, q, res.status, res.json.parameter_problems]).toEqual([path, q, 400, { q: ["must hold at most 30 “-” before words"] }]);
      }
      // 30 before words, and any number inside words.
      for (const q of [`x or ${"- ".repeat(30)}sales`, `PO${"-1".repeat(40)}`]) {
        const most = await api(`${path}?q=${encodeURIComponent(q)}`, { email: w.users.editor.email });
        expect([path, q, most.status]).toEqual([path, q, 200]);
      }
    }
  });
});
