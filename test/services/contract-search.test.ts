// The contracts list's search (`q`, docs/api.md "Finding contracts"): each kind of match, the
// `relevance` order, the highlights, the workspace permissions (list, count and CSV), and the
// search document kept current by the triggers after every kind of change, whichever path wrote it.
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateSessionUser, loadUserActor } from "@/lib/api/auth";
import { contractsCsvStream } from "@/lib/api/contracts-csv";
import { contractListPreload } from "@/lib/api/json/contract";
import { SEARCH_PARTITIONS, searchHighlightPattern } from "@/lib/api/json/contract-search";
import { searchWalksSql, type TSearchWay } from "@/lib/api/json/contract-search-matches";
import { bytesFromEscaped } from "@/lib/db/sql";
import { createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import type { Actor } from "@/lib/domain/actor";
import { type TContractListItem, ZContractExportQuerySchema, ZContractListQuerySchema } from "@/lib/schemas";
import { updateDataField } from "@/lib/services/data-fields/update-data-field";
import { createParty } from "@/lib/services/parties/create-party";
import { deleteParty } from "@/lib/services/parties/delete-party";
import { publishContract } from "@/lib/services/contracts/publish-contract";
import { createPrismaClient } from "@/lib/db/pool";
import pg from "pg";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;
let admin: { id: number };
let editorA: { id: number };
const actors = {} as Record<"admin" | "editorA", Actor>;
const c = {} as Record<"supply" | "service" | "lease" | "secret", number>;
const ws = {} as Record<"a" | "b", number>;

type TList = { count: number; count_exact?: boolean; data: TContractListItem[] };

/**
 * The list `user` reads for `query`, a search with each item's `_search` (`matches=true`) unless
 * `withMatches` is false. A search is read each way it can be found (the sample's choice, every
 * partition walked, every partition looked up: contract-search-matches.ts), which must give the same
 * answer.
 */
async function list(user: { id: number }, query: Record<string, string>, matchLimit?: number, withMatches = true): Promise<TList> {
  const read = async (searchWay?: TSearchWay) => {
    const options = { ...(matchLimit === undefined ? {} : { matchLimit }), ...(searchWay === undefined ? {} : { searchWay }) };
    const matches = query.q === undefined || !withMatches ? {} : { matches: "true" };
    const preload = contractListPreload(ZContractListQuerySchema.parse({ limit: "100", ...matches, ...query }), "https://x.example", options);
    const auth = await authenticateSessionUser(db.prisma, user.id, preload);
    return JSON.parse(`${bytesFromEscaped(auth!.preloaded as string[]).toString("utf8")}}`) as TList;
  };
  const answer = await read();
  if (query.q !== undefined) for (const way of ["walk", "look-up"] as const) expect(await read(way), `the ${way}`).toEqual(answer);
  return answer;
}
const ids = async (user: { id: number }, q: string, sort?: string) => (await list(user, { q, ...(sort ? { sort } : {}) })).data.map((x) => x.id);

/** The search document as the triggers keep it equals the one made afresh from its sources, for every contract. */
async function documentsStale(): Promise<number> {
  const [row] = await db.prisma.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM contract_search s FULL JOIN contract_search_source v USING (contract_id)
     WHERE s.contract_id IS NULL OR v.contract_id IS NULL OR s.doc IS DISTINCT FROM v.doc OR s.tsv IS DISTINCT FROM v.tsv
        OR s.name IS DISTINCT FROM v.name OR s.workspace_id IS DISTINCT FROM v.workspace_id OR s.state IS DISTINCT FROM v.state`;
  return row!.n;
}

beforeAll(async () => {
  db = await createTestDatabase();
  const a = await createWorkspace(db.prisma, { name: "Workspace A" });
  const b = await createWorkspace(db.prisma, { name: "Workspace B" });
  [ws.a, ws.b] = [a.id, b.id];
  const template = await createTemplate(db.prisma, {
    workspaceIds: [a.id, b.id],
    dataFields: [{ name: "Order number", customId: "order" }],
    body: { sections: [{ heading: "Confidentiality", text: "The parties keep the Kestrel formula secret." }] },
  });
  admin = await createUser(db.prisma, { isAdmin: true });
  editorA = await createUser(db.prisma, { memberships: [{ workspaceId: a.id, role: "editor" }] });
  actors.admin = (await loadUserActor(db.prisma, admin, { via: "session", apiTokenId: null }))!;
  actors.editorA = (await loadUserActor(db.prisma, editorA, { via: "session", apiTokenId: null }))!;
  const make = async (ws: number, name: string, party: string, person: { name: string; email: string }) =>
    (await createContract(db.prisma, { workspaceId: ws, templateId: template.id, name, counterparties: [{ type: "company", name: party, participants: [person] }] })).id;
  c.supply = await make(a.id, "Nordic supply 2026", "Fjordline AS", { name: "Greta Lindqvist", email: "greta@fjordline.no" });
  c.service = await make(a.id, "Service agreement", "Nordic Paper AB", { name: "Olle Berg", email: "olle@paper.se" });
  c.lease = await make(a.id, "Lease", "Lakeside Oy", { name: "Aino Virtanen", email: "aino@lakeside.fi" });
  c.secret = await make(b.id, "Nordic secret", "Hidden Co", { name: "Sam Spy", email: "spy@hidden.example" });
  await db.prisma.contract.update({ where: { id: c.lease }, data: { body: { sections: [{ heading: "Scope", text: "Deliveries across the Nordic countries." }] } } });
  for (const id of [c.supply, c.secret]) await db.prisma.contractDataField.updateMany({ where: { contractId: id }, data: { value: "PO-4411" } });
});
afterAll(() => db.cleanup());

describe("q= finds", () => {
  it("the name, a party, a participant's name and e-mail address, a data field value, the text and part of a number", async () => {
    expect(await ids(admin, "supply")).toEqual([c.supply]);
    expect(await ids(admin, "Fjordline")).toEqual([c.supply]);
    expect(await ids(admin, "Greta Lindqvist")).toEqual([c.supply]);
    expect(await ids(admin, "olle@paper.se")).toEqual([c.service]);
    expect(await ids(admin, "PO-4411", "id")).toEqual([c.supply, c.secret]);
    expect(await ids(admin, "4411", "id")).toEqual([c.supply, c.secret]);
    expect(await ids(admin, "kestrel", "id")).toEqual([c.supply, c.service, c.secret]);
    expect(await ids(admin, "countries")).toEqual([c.lease]);
    // Every word, in any field and order; part of a word from 3 characters; nothing else.
    expect(await ids(admin, "lindqvist nordic")).toEqual([c.supply]);
    expect(await ids(admin, "jordli")).toEqual([c.supply]);
    // In any case: `LINDQV` is in `Lindqvist` only.
    expect(await ids(admin, "LINDQV")).toEqual([c.supply]);
    // An address by its domain (with or without @) or the part before the @, as words; not inside them.
    expect(await ids(admin, "paper.se")).toEqual([c.service]);
    expect(await ids(admin, "@fjordline.no")).toEqual([c.supply]);
    expect(await ids(admin, "ordline.no")).toEqual([]);
    expect(await ids(admin, "nothing like this")).toEqual([]);
  });

  it("ranks the name first, then parties and people, then the text; relevance is the default with q", async () => {
    const found = await list(editorA, { q: "nordic" });
    expect(found.data.map((x) => x.id)).toEqual([c.supply, c.service, c.lease]);
    expect(found.count).toBe(3);
    expect(await ids(editorA, "nordic", "relevance")).toEqual([c.supply, c.service, c.lease]);
    expect(await ids(editorA, "nordic", "-id")).toEqual([c.lease, c.service, c.supply]);
    expect(() => ZContractListQuerySchema.parse({ sort: "relevance" })).toThrow("relevance needs q");
  });

  it("ranks the words in the order searched before the same words in another order", async () => {
    const { workspaceId, templateId } = await db.prisma.contract.findUniqueOrThrow({ where: { id: c.secret } });
    const make = async (party: string) =>
      (await createContract(db.prisma, { workspaceId, templateId, name: "Paper deal", counterparties: [{ type: "company", name: party, participants: [] }] })).id;
    // The same words, as near, with the same weights: ties go newest first, so only the phrase puts the older first.
    const older = await make("Kraft Mill AB");
    const newer = await make("Mill Kraft AB");
    expect(await ids(admin, "kraft mill")).toEqual([older, newer]);
    expect(await ids(admin, "mill kraft")).toEqual([newer, older]);
    await db.prisma.contract.deleteMany({ where: { id: { in: [older, newer] } } });
  });

  it("ranks each word by where it is, not by how far apart the words are: far and near tie, newest first", async () => {
    const { workspaceId, templateId } = await db.prisma.contract.findUniqueOrThrow({ where: { id: c.secret } });
    const make = async (text: string) => {
      const id = (await createContract(db.prisma, { workspaceId, templateId, name: "Terms", counterparties: [] })).id;
      await db.prisma.contract.update({ where: { id }, data: { body: { sections: [{ heading: "", text }] } } });
      return id;
    };
    const near = await make("Alpha zeta beta.");
    const far = await make(`Alpha ${"zeta ".repeat(40)}beta.`);
    // Ranked by both words together, every pair of their places was compared, and the near pair won.
    expect(await ids(admin, "alpha beta")).toEqual([far, near]);
    await db.prisma.contract.deleteMany({ where: { id: { in: [near, far] } } });
  });

  it("gives the name that holds the whole search its bonus however q quotes or spaces it", async () => {
    const { workspaceId, templateId } = await db.prisma.contract.findUniqueOrThrow({ where: { id: c.secret } });
    const named = (await createContract(db.prisma, { workspaceId, templateId, name: "Kappa Lambda", counterparties: [] })).id;
    const crowded = (
      await createContract(db.prisma, {
        workspaceId,
        templateId,
        name: "Lambda Kappa",
        counterparties: [{ type: "company", name: "Kappa Lambda Kappa Lambda Ltd", participants: [{ name: "Kappa Lambda", email: "kl@kl.example" }] }],
      })
    ).id;
    for (const q of ["Kappa Lambda", '"Kappa Lambda"', "Kappa  Lambda", "kappa, lambda"]) expect(await ids(admin, q), q).toEqual([named, crowded]);
    // The words with punctuation between them count as together; apart, or inside longer words, not.
    await db.prisma.contract.update({ where: { id: named }, data: { name: "Kappa & Lambda" } });
    await db.prisma.contract.update({ where: { id: crowded }, data: { name: "Kappa, Kappas Lambdas, Lambda" } });
    expect(await ids(admin, "kappa lambda")).toEqual([named, crowded]);
    // With the bonus for both, the one with the words in more places ranks first.
    await db.prisma.contract.update({ where: { id: crowded }, data: { name: "Kappa-Lambda, Kappa Lambda" } });
    expect(await ids(admin, "kappa lambda")).toEqual([crowded, named]);
    await db.prisma.contract.deleteMany({ where: { id: { in: [named, crowded] } } });
  });

  it("holds the newest matches up to the limit, ranks or orders those, and says when more match", async () => {
    // Three of editor A's contracts hold "nordic" (supply, service, lease, oldest first).
    const all = await list(editorA, { q: "nordic" }, 3);
    expect([all.count, all.count_exact]).toEqual([3, true]);
    // Two: the two newest, ranked (a party's name before the text), and count_exact false.
    const newest = await list(editorA, { q: "nordic" }, 2);
    expect([newest.count, newest.count_exact, newest.data.map((x) => x.id)]).toEqual([2, false, [c.service, c.lease]]);
    // In another order, the same two newest in that order; a page past the limit is empty.
    expect((await list(editorA, { q: "nordic", sort: "id" }, 2)).data.map((x) => x.id)).toEqual([c.service, c.lease]);
    expect((await list(editorA, { q: "nordic", sort: "-id" }, 2)).data.map((x) => x.id)).toEqual([c.lease, c.service]);
    expect((await list(editorA, { q: "nordic", sort: "id", offset: "2" }, 2)).data).toEqual([]);
    // Without q there is no such field: the count is always exact.
    expect((await list(editorA, {})).count_exact).toBeUndefined();
  });

  it("is prepared under a name and planned once, whatever the words: the generic plan finds each search's own matches", async () => {
    const preload = (query: Record<string, string>) => contractListPreload(ZContractListQuerySchema.parse(query), "https://x.example");
    // The statement's text is the same for other words of the same form (they are values of the run).
    expect(preload({ q: "nordic" }).text).toBe(preload({ q: "greta" }).text);
    if (db.kind !== "postgres") return; // the embedded database prepares nothing by name
    // Two statements: every workspace, and one asked for (a value of the run too).
    const searches: Record<string, string>[] = [{ q: "nordic" }, { q: "greta" }, { q: "nordic", workspace_id: String(ws.a) }, { q: "nordic", workspace_id: String(ws.b) }, { q: "zzqxv" }];
    const expected = await Promise.all(searches.map(async (query) => (await list(admin, query)).data.map((x) => x.id)));
    expect(expected.map((e) => e.length > 0)).toEqual([true, true, true, true, false]);
    expect(expected[2]).not.toEqual(expected[3]);
    // On one connection: after five runs PostgreSQL plans each statement once for every value, and
    // that plan answers each search with its own matches.
    const one = createPrismaClient(db.url, 1);
    const read = async (query: Record<string, string>) => {
      const auth = await authenticateSessionUser(one, admin.id, preload(query));
      return (JSON.parse(`${bytesFromEscaped(auth!.preloaded as string[]).toString("utf8")}}`) as TList).data.map((x) => x.id);
    };
    try {
      for (let round = 0; round < 8; round++) for (const [i, query] of searches.entries()) expect(await read(query), JSON.stringify(query)).toEqual(expected[i]);
      const prepared = await one.$queryRaw<{ generic: number }[]>`SELECT generic_plans::int AS generic FROM pg_prepared_statements WHERE statement LIKE '%websearch_to_tsquery%'`;
      expect(prepared.map((p) => p.generic > 0)).toEqual([true, true]);
    } finally {
      await one.$disconnect();
    }
  });

  it("says where each contract matched, the matched words marked as plain text pieces", async () => {
    const [supply] = (await list(admin, { q: "4411", workspace_id: String((await db.prisma.contract.findUniqueOrThrow({ where: { id: c.supply } })).workspaceId) })).data;
    expect(supply!._search).toEqual({ matches: [{ field: "data_field", label: "Order number", highlight: ["PO-", "4411", ""] }] });
    const [greta] = (await list(admin, { q: "greta" })).data;
    expect(greta!._search!.matches).toEqual([
      { field: "participant_name", label: null, highlight: ["", "Greta", " Lindqvist"] },
      { field: "participant_email", label: null, highlight: ["", "greta", "@fjordline.no"] },
    ]);
    const [lease] = (await list(admin, { q: "nordic countries" })).data;
    expect(lease!._search!.matches).toEqual([{ field: "text", label: "Scope", highlight: ["Deliveries across the ", "Nordic countries", "."] }]);
    // A section's heading, then its text (labelled with the heading).
    const [confidential] = (await list(admin, { q: "confidentiality kestrel", sort: "id" })).data;
    expect(confidential!._search!.matches).toEqual([
      { field: "heading", label: null, highlight: ["", "Confidentiality", ""] },
      { field: "text", label: "Confidentiality", highlight: ["The parties keep the ", "Kestrel", " formula secret."] },
    ]);
    // Each term as text search reads it: the words of `(kestrel),`, and a quoted phrase as one piece,
    // not its words wherever they stand.
    const confidentialText = async (q: string) => (await list(admin, { q, sort: "id" })).data[0]!._search!.matches.find((m) => m.field === "text")?.highlight;
    expect(await confidentialText("(kestrel),")).toEqual(["The parties keep the ", "Kestrel", " formula secret."]);
    expect(await confidentialText('"the kestrel"')).toEqual(["The parties keep ", "the Kestrel", " formula secret."]);
    // A letter's combining marks are part of its word: one term, not pieces joined by non-letters.
    expect(searchHighlightPattern("हिन्दी")).toBe("(?<![[:alnum:]])हिन्दी(?![[:alnum:]])");
    // Each `-` negates the term after it however it is written, as PostgreSQL reads it: the
    // contract is found (the formula word negated, or double negated) exactly when the highlight
    // marks what matched, never the negated word.
    const marksFormula = (q: string) =>
      [..."The Kestrel formula.".matchAll(new RegExp(searchHighlightPattern(q)!.replaceAll("[:alnum:]", "\\p{L}\\p{N}"), "giu"))].some((m) => m[0].includes("formula"));
    const negatedBy = async (q: string) => {
      const [query] = await db.prisma.$queryRaw<{ t: string }[]>`SELECT websearch_to_tsquery('simple', ${q})::text AS t`;
      return (/(!*)'formula'/.exec(query!.t)?.[1]!.length ?? 0) % 2 === 1;
    };
    for (const q of ["kestrel - formula", "kestrel (-formula)", "kestrel !-formula", '"kestrel"-formula', "kestrel<->formula", "kestrel -- - formula", "kestrel -@formula"]) {
      expect([q, await negatedBy(q), marksFormula(q)]).toEqual([q, true, false]);
    }
    for (const q of ["kestrel -- formula", "kestrel - - formula", "kestrel-formula", "kestrel formula-", "kestrel-- formula", "kestrel.-formula", "kestrel @-formula"]) {
      expect([q, await negatedBy(q), marksFormula(q)]).toEqual([q, false, true]);
    }
    // What is marked is what PostgreSQL searches for, however `or` and spaces stand: `or` before
    // punctuation is an operator, a second `or` a word; every Unicode space is a space (the request
    // schema's), so a no-break space before `-` negates on either database.
    const searchedWords = async (raw: string) => {
      const q = ZContractListQuerySchema.parse({ q: raw }).q!;
      const [query] = await db.prisma.$queryRaw<{ t: string }[]>`SELECT websearch_to_tsquery('simple', ${q})::text AS t`;
      const postgres = [...query!.t.matchAll(/(!?)'((?:[^']|'')*)'/g)].filter((m) => m[1] === "").map((m) => m[2]!);
      const pattern = new RegExp(searchHighlightPattern(q)!.replaceAll("[:alnum:]", "\\p{L}\\p{N}"), "giu");
      const marked = ["kestrel", "or", "formula", "oré"].filter((w) => `the ${w}.`.match(pattern)?.includes(w));
      return [raw, [...new Set(postgres)].sort(), marked.sort()];
    };
    for (const [q, words] of [
      ["kestrel or.formula", ["formula", "kestrel"]],
      ["kestrel OR,formula", ["formula", "kestrel"]],
      ['kestrel or"formula"', ["formula", "kestrel"]],
      ["kestrel or or formula", ["formula", "kestrel", "or"]],
      ["kestrel or.", ["kestrel", "or"]],
      ["or kestrel", ["kestrel", "or"]],
      ["kestrel oré", ["kestrel", "oré"]],
      ["kestrel\u00a0-formula", ["kestrel"]],
      ["kestrel\u3000-formula", ["kestrel"]],
      ["kestrel\u202for\u2003formula", ["formula", "kestrel"]],
    ] as const) {
      expect(await searchedWords(q)).toEqual([q, words, words]);
    }
    expect(await ids(admin, "kestrel\u00a0-formula")).toEqual([]);
    expect(await confidentialText("zzz or.kestrel")).toEqual(["The parties keep the ", "Kestrel", " formula secret."]);
    // A word ends at `_` and punctuation, as text search reads it: `fo` in `fo_ba` is a word.
    await db.prisma.contract.update({ where: { id: c.lease }, data: { name: "Lease fo_ba" } });
    expect((await list(admin, { q: "fo" })).data.map((x) => [x.id, x._search!.matches])).toEqual([[c.lease, [{ field: "name", label: null, highlight: ["Lease ", "fo", "_ba"] }]]]);
    // A negated word matches nothing inside words, and nothing is marked for it.
    await db.prisma.contract.update({ where: { id: c.lease }, data: { name: "Lease after-sales" } });
    const unsold = await list(admin, { q: "-sales" });
    expect(unsold.data.map((x) => x.id)).not.toContain(c.lease);
    expect(unsold.data.every((x) => x._search!.matches.length === 0)).toBe(true);
    // Negated twice, as text search reads it: the word again, marked.
    expect((await list(admin, { q: "--sales" })).data.map((x) => [x.id, x._search!.matches])).toEqual([[c.lease, [{ field: "name", label: null, highlight: ["Lease after-", "sales", ""] }]]]);
    // A placeholder is not a word of the text: its value is the party's, the data field's (words of their own).
    await db.prisma.contract.update({ where: { id: c.lease }, data: { body: { sections: [{ heading: "Scope", text: "Deliveries across the Nordic countries, between {{parties}}, order {{ field.order }}." }] } } });
    expect(await ids(admin, "field")).toEqual([]);
    expect(await ids(admin, "parties")).not.toContain(c.lease);
    expect((await list(admin, { q: "between" })).data.map((x) => [x.id, x._search!.matches])).toEqual([
      [c.lease, [{ field: "text", label: "Scope", highlight: ["Deliveries across the Nordic countries, ", "between", " …, order …."] }]],
    ]);
    expect(await documentsStale()).toBe(0);
    await db.prisma.contract.update({ where: { id: c.lease }, data: { body: { sections: [{ heading: "Scope", text: "Deliveries across the Nordic countries." }] } } });
    // Markup in the data is text like any other: the answer carries no HTML of its own.
    await db.prisma.contract.update({ where: { id: c.lease }, data: { name: "Lease <b>bold</b>" } });
    const [marked] = (await list(admin, { q: "bold" })).data;
    expect(marked!._search!.matches[0]).toEqual({ field: "name", label: null, highlight: ["Lease <b>", "bold", "</b>"] });
    await db.prisma.contract.update({ where: { id: c.lease }, data: { name: "Lease" } });
    // No `_search` without q, nor unless asked for: the same contracts and count without it.
    expect((await list(admin, {})).data.every((x) => x._search === undefined)).toBe(true);
    const asked = await list(admin, { q: "nordic" });
    expect(asked.data.length).toBeGreaterThan(1);
    expect(asked.data.every((x) => x._search!.matches.length > 0)).toBe(true);
    const unasked = await list(admin, { q: "nordic" }, undefined, false);
    expect(unasked.data.map((x) => [x.id, x._search])).toEqual(asked.data.map((x) => [x.id, undefined]));
    expect(unasked).toEqual({ ...asked, data: asked.data.map(({ _search, ...item }) => item) });
  });

  it("reads a number after a hyphen also as the number: `PO-4411` is the words po, -4411 and 4411", async () => {
    // PostgreSQL's parser reads the hyphen as a minus sign; a person reads two words.
    for (const q of ["po 4411", "4411 po", '"po 4411"', "PO-4411", "po-4411", "4411"]) expect(await ids(admin, q, "id"), q).toEqual([c.supply, c.secret]);
    // A word like any other: left out by `-4411`, marked where it stands.
    expect(await ids(admin, "po -4411")).toEqual([]);
    expect(await ids(admin, "fjordline -4411")).toEqual([]);
    const [supply] = (await list(admin, { q: "po 4411", workspace_id: String(ws.a) })).data;
    expect(supply!._search!.matches).toEqual([{ field: "data_field", label: "Order number", highlight: ["", "PO-4411", ""] }]);
    // At the signed number's place, with its weight (a data field value's, C): a phrase reads it, the rank weighs it as the value.
    const places = await db.prisma.$queryRaw<{ lexeme: string; at: string }[]>`
      SELECT u.lexeme, array_to_string(u.positions, ',') || '/' || array_to_string(u.weights, ',') AS at
        FROM contract_search s CROSS JOIN LATERAL unnest(s.tsv) u WHERE s.contract_id = ${c.supply} AND u.lexeme IN ('-4411', '4411') ORDER BY u.lexeme`;
    expect(places.map((p) => p.lexeme)).toEqual(["-4411", "4411"]);
    expect(places[0]!.at).toBe(places[1]!.at);
    expect(places[0]!.at).toMatch(/\/C$/);
  });

  it("finds a part of a number wherever it stands, and only inside one run of digits", async () => {
    const { workspaceId, templateId } = await db.prisma.contract.findUniqueOrThrow({ where: { id: c.secret } });
    const made: number[] = [];
    const make = async (name: string, party: { name: string; identificationNumber?: string; email?: string }) => {
      const id = (await createContract(db.prisma, { workspaceId, templateId, name, counterparties: [{ type: "company", name: party.name, identificationNumber: party.identificationNumber ?? "", participants: party.email ? [{ name: "Num Ber", email: party.email }] : [] }] })).id;
      made.push(id);
      return id;
    };
    try {
      const inName = await make("Order 1290178", { name: "Plain AB" });
      const inNumber = await make("Plain one", { name: "Plain AB", identificationNumber: "559017-3456" });
      const inAddress = await make("Plain two", { name: "Plain AB", email: "desk9017@plain.example" });
      const inField = await make("Plain three", { name: "Plain AB" });
      const field = await db.prisma.contractDataField.findFirstOrThrow({ where: { contractId: inField } });
      await updateDataField({ db: db.prisma, actor: actors.admin, contractId: inField, dataField: { id: field.id }, value: "X-99017" });
      const inText = await make("Plain four", { name: "Plain AB" });
      await db.prisma.contract.update({ where: { id: inText }, data: { body: { sections: [{ heading: "Ref", text: "See invoice 19017." }] } } });
      // Split by anything but a digit, the same digits are no number that holds it.
      const split = await make("Order 90-17, 9 017, 9o17", { name: "Plain AB" });
      expect(await ids(admin, "9017", "id")).toEqual([inName, inNumber, inAddress, inField, inText]);
      expect(await ids(admin, "017", "id")).toEqual([inName, inNumber, inAddress, inField, inText, split]);
      expect(split).toBeGreaterThan(inText);
    } finally {
      await db.prisma.contract.deleteMany({ where: { id: { in: made } } });
    }
  });

  it("searches the text as shown: a data field's value where its placeholder stands (inside a word too), a party's identification number", async () => {
    const { workspaceId, templateId } = await db.prisma.contract.findUniqueOrThrow({ where: { id: c.secret } });
    const id = (await createContract(db.prisma, { workspaceId, templateId, name: "Purchase", counterparties: [{ type: "company", name: "Tundra AB", identificationNumber: "556677-8899", participants: [] }] })).id;
    try {
      await db.prisma.contract.update({ where: { id }, data: { body: { sections: [{ heading: "Delivery", text: "Deliver against PO-{{ field.order }} only." }] } } });
      await db.prisma.contractDataField.updateMany({ where: { contractId: id }, data: { value: "7788" } });
      // The value inside the word the text shows: `PO-7788`, as typed and as words.
      expect(await ids(admin, "PO-7788")).toEqual([id]);
      expect(await ids(admin, "po 7788")).toEqual([id]);
      expect(await ids(admin, '"against po 7788"')).toEqual([id]);
      expect((await list(admin, { q: "PO-7788" })).data.map((x) => x._search!.matches)).toEqual([[{ field: "text", label: "Delivery", highlight: ["Deliver against ", "PO-7788", " only."] }]]);
      // Changed by the product's service: the text shows the new value; empty, it shows none (`…`).
      const field = await db.prisma.contractDataField.findFirstOrThrow({ where: { contractId: id } });
      await updateDataField({ db: db.prisma, actor: actors.admin, contractId: id, dataField: { id: field.id }, value: "9911" });
      expect(await ids(admin, "PO-9911")).toEqual([id]);
      expect(await ids(admin, "PO-7788")).toEqual([]);
      await updateDataField({ db: db.prisma, actor: actors.admin, contractId: id, dataField: { id: field.id }, value: "" });
      expect((await list(admin, { q: "against" })).data.map((x) => x._search!.matches)).toEqual([[{ field: "text", label: "Delivery", highlight: ["Deliver ", "against", " PO-… only."] }]]);
      // A party's identification number, as the document lists the parties: whole, its parts, part of it.
      for (const q of ["556677-8899", "556677 8899", "8899", "6677"]) expect(await ids(admin, q), q).toEqual([id]);
      expect((await list(admin, { q: "556677-8899" })).data.map((x) => x._search!.matches)).toEqual([[{ field: "party_identification_number", label: null, highlight: ["", "556677-8899", ""] }]]);
      await db.prisma.party.updateMany({ where: { contractId: id, name: "Tundra AB" }, data: { identificationNumber: "112233-4455" } });
      expect(await ids(admin, "4455")).toEqual([id]);
      expect(await ids(admin, "8899")).toEqual([]);
      expect(await documentsStale()).toBe(0);
    } finally {
      await db.prisma.contract.delete({ where: { id } });
    }
  });

  it("marks a letter in each of its case forms, as the search finds it: İstanbul for istanbul, STRAẞE for straße", async () => {
    const { workspaceId, templateId } = await db.prisma.contract.findUniqueOrThrow({ where: { id: c.secret } });
    const id = (await createContract(db.prisma, { workspaceId, templateId, name: "İstanbul office", counterparties: [{ type: "company", name: "STRAẞE GmbH", participants: [] }] })).id;
    try {
      const found = async (q: string) => (await list(admin, { q })).data.map((x) => [x.id, x._search!.matches]);
      const inName = (highlight: string[]) => [[id, [{ field: "name", label: null, highlight }]]];
      for (const q of ["istanbul", "ISTANBUL", "İstanbul"]) expect(await found(q), q).toEqual(inName(["", "İstanbul", " office"]));
      expect(await found("istanbul office")).toEqual(inName(["", "İstanbul office", ""]));
      expect(await found("istan")).toEqual(inName(["", "İstan", "bul office"]));
      for (const q of ["straße", "STRAẞE", "Straße"]) expect(await found(q), q).toEqual([[id, [{ field: "party", label: null, highlight: ["", "STRAẞE", " GmbH"] }]]]);
      // One rule for every letter: the class of each character whose lower case is the letter's.
      expect(searchHighlightPattern("ik")).toBe("(?<![[:alnum:]])[Ii\u0130][Kk\u212a](?![[:alnum:]])");
    } finally {
      await db.prisma.contract.delete({ where: { id } });
    }
  });
});

describe("the CSV of a search, by relevance", () => {
  it("finds and ranks every match once: a contract whose rank rises while the file is read is in it once; one that stops matching, or starts, is not", async () => {
    const { workspaceId, templateId } = await db.prisma.contract.findUniqueOrThrow({ where: { id: c.supply } });
    const made: number[] = [];
    const make = async (name: string, value: string) => {
      const id = (await createContract(db.prisma, { workspaceId, templateId, name, counterparties: [{ type: "company", name: "Plain AB", participants: [] }] })).id;
      made.push(id);
      const field = await db.prisma.contractDataField.findFirstOrThrow({ where: { contractId: id } });
      await updateDataField({ db: db.prisma, actor: actors.admin, contractId: id, dataField: { id: field.id }, value });
      return { id, field: field.id };
    };
    try {
      // By rank: the name's match, then the data fields' (equal ranks, newest first).
      const gone = await make("Plan four", "wombat");
      const low = await make("Plan three", "wombat");
      const lower = await make("Plan two", "wombat");
      const top = await make("Wombat plan", "none");
      const stream = await contractsCsvStream({ db: db.prisma, actor: actors.admin, query: ZContractExportQuerySchema.parse({ q: "wombat" }), batchRows: 1 });
      const reader = stream.getReader();
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < 4; i++) chunks.push((await reader.read()).value!); // the byte order mark, the header, two rows
      // While it is read: `low` now also has a party of the name (above `lower`, read already); `gone` no longer matches.
      await createParty({ db: db.prisma, actor: actors.admin, contractId: low.id, request: { type: "company", name: "Wombat AB", country_code: "SE", identification_number: "", participants: [] } as never });
      await updateDataField({ db: db.prisma, actor: actors.admin, contractId: gone.id, dataField: { id: gone.field }, value: "" });
      for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
      const rows = parse(new TextDecoder().decode(Buffer.concat(chunks)), { bom: true, columns: true }) as { id: string }[];
      expect(rows.map((r) => Number(r.id))).toEqual([top.id, lower.id, low.id]);
      // In any order, the file holds the contracts that matched when it began (found once: a keyset
      // batch found every match again), less those that no longer do.
      const byId = await contractsCsvStream({ db: db.prisma, actor: actors.admin, query: ZContractExportQuerySchema.parse({ q: "wombat", sort: "id" }), batchRows: 1 });
      const idReader = byId.getReader();
      const idChunks: Uint8Array[] = [];
      for (let i = 0; i < 3; i++) idChunks.push((await idReader.read()).value!); // the byte order mark, the header, one row
      const later = await make("Plan five", "wombat");
      for (let r = await idReader.read(); !r.done; r = await idReader.read()) idChunks.push(r.value);
      const idRows = parse(new TextDecoder().decode(Buffer.concat(idChunks)), { bom: true, columns: true }) as { id: string }[];
      expect(idRows.map((r) => Number(r.id))).toEqual([low.id, lower.id, top.id]);
      expect(later.id).toBeGreaterThan(top.id);
    } finally {
      await db.prisma.contract.deleteMany({ where: { id: { in: made } } });
    }
  });
});

describe("q= and the workspaces", () => {
  it("the CSV leaves out a match moved to a workspace the caller cannot see while the file is read", async () => {
    const { templateId } = await db.prisma.contract.findUniqueOrThrow({ where: { id: c.supply } });
    // One after the other: the one moved is read after the first row (by id) is written.
    const made: number[] = [];
    for (const name of ["Numbat one", "Numbat two"])
      made.push((await createContract(db.prisma, { workspaceId: ws.a, templateId, name, counterparties: [{ type: "company", name: "Plain AB", participants: [] }] })).id);
    try {
      const stream = await contractsCsvStream({ db: db.prisma, actor: actors.editorA, query: ZContractExportQuerySchema.parse({ q: "numbat", sort: "id" }), batchRows: 1 });
      const reader = stream.getReader();
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < 3; i++) chunks.push((await reader.read()).value!); // the byte order mark, the header, one row
      // No operation moves a contract: as a move would leave it (its search document follows, by trigger).
      await db.prisma.contract.update({ where: { id: made[1]! }, data: { workspaceId: ws.b } });
      for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
      const rows = parse(new TextDecoder().decode(Buffer.concat(chunks)), { bom: true, columns: true }) as { id: string }[];
      expect(rows.map((r) => Number(r.id))).toEqual([made[0]]);
    } finally {
      await db.prisma.contract.deleteMany({ where: { id: { in: made } } });
    }
  });

  it("never shows or counts another workspace's match, in the list or the CSV", async () => {
    // With a state too: the list reads the document's state, the CSV the contract's.
    for (const q of ["PO-4411", "4411", "nordic", "hidden", "spy@hidden.example", "kestrel"])
      for (const query of [{ q }, { q, state: "draft" }] as Record<string, string>[]) {
        const found = await list(editorA, query);
        expect(found.data.map((x) => x.id)).not.toContain(c.secret);
        expect(found.count, q).toBe(found.data.length);
        const csv = parse(
          new TextDecoder().decode(await new Response(await contractsCsvStream({ db: db.prisma, actor: actors.editorA, query: ZContractExportQuerySchema.parse(query), batchRows: 1 })).arrayBuffer()),
          { bom: true, columns: true },
        ) as { id: string }[];
        expect(csv.map((r) => Number(r.id)), q).toEqual(found.data.map((x) => x.id));
      }
    expect((await list(editorA, { q: "hidden" })).count).toBe(0);
    expect((await list(admin, { q: "hidden" })).count).toBe(1);
  });

  it("in one workspace asked for (workspace_id): only its matches, counted, with the other filters; none where the caller may not look", async () => {
    const sorted = (x: TList) => [x.data.map((i) => i.id).sort((m, n) => m - n), x.count];
    expect(sorted(await list(admin, { q: "nordic", workspace_id: String(ws.a) }))).toEqual([[c.supply, c.service, c.lease], 3]);
    expect(sorted(await list(admin, { q: "nordic", workspace_id: String(ws.b) }))).toEqual([[c.secret], 1]);
    expect(sorted(await list(admin, { q: "nordic", workspace_id: String(ws.b), state: "pending" }))).toEqual([[], 0]);
    expect(sorted(await list(admin, { q: "4411", workspace_id: String(ws.b), state: "draft" }))).toEqual([[c.secret], 1]);
    expect(sorted(await list(editorA, { q: "nordic", workspace_id: String(ws.a) }))).toEqual([[c.supply, c.service, c.lease], 3]);
    expect(sorted(await list(editorA, { q: "nordic", workspace_id: String(ws.b) }))).toEqual([[], 0]);
    const both = await createUser(db.prisma, { memberships: [{ workspaceId: ws.a, role: "viewer" }, { workspaceId: ws.b, role: "viewer" }] });
    expect(sorted(await list(both, { q: "nordic", workspace_id: String(ws.b) }))).toEqual([[c.secret], 1]);
    expect(sorted(await list(both, { q: "nordic", workspace_id: String(ws.a), sort: "id" }))).toEqual([[c.supply, c.service, c.lease], 3]);
  });

  it("a member of one of two workspaces that share a partition finds that workspace's contracts only, in the list and its count", async () => {
    // Eight partitions: of nine workspaces, two share one (found by where their documents are).
    const made: { ws: number; contract: number; partition: string }[] = [];
    let pair: [(typeof made)[number], (typeof made)[number]] | undefined;
    while (!pair) {
      const w = await createWorkspace(db.prisma, { name: `Shared ${made.length}` });
      const template = await createTemplate(db.prisma, { workspaceIds: [w.id], body: { sections: [{ heading: "Terms", text: "The Osprey clause applies." }] } });
      const contract = (await createContract(db.prisma, { workspaceId: w.id, templateId: template.id, name: `Osprey ${made.length}` })).id;
      const [row] = await db.prisma.$queryRaw<{ p: string }[]>`SELECT tableoid::regclass::text AS p FROM contract_search WHERE contract_id = ${contract}`;
      const mate = made.find((m) => m.partition === row!.p);
      made.push({ ws: w.id, contract, partition: row!.p });
      if (mate) pair = [mate, made.at(-1)!];
    }
    const member = await createUser(db.prisma, { memberships: [{ workspaceId: pair[0].ws, role: "viewer" }] });
    const sorted = (x: TList) => [x.data.map((i) => i.id).sort((m, n) => m - n), x.count];
    expect(sorted(await list(member, { q: "osprey" }))).toEqual([[pair[0].contract], 1]);
    expect(sorted(await list(member, { q: "osprey", workspace_id: String(pair[1].ws) }))).toEqual([[], 0]);
    expect(sorted(await list(admin, { q: "osprey", workspace_id: String(pair[1].ws) }))).toEqual([[pair[1].contract], 1]);
    expect((await list(admin, { q: "osprey" })).count).toBe(made.length);
  });

  it("finds a contract in the workspace it moved to, and gives a member of several the newest of them all", async () => {
    const both = await createUser(db.prisma, { memberships: [{ workspaceId: ws.a, role: "editor" }, { workspaceId: ws.b, role: "editor" }] });
    expect(await ids(both, "kestrel", "-id")).toEqual([c.secret, c.service, c.supply]);
    const newestTwo = await list(both, { q: "kestrel", sort: "-id" }, 2);
    expect([newestTwo.data.map((x) => x.id), newestTwo.count, newestTwo.count_exact]).toEqual([[c.secret, c.service], 2, false]);
    // Moved to workspace B: one document, in B's partition; A's editor no longer finds it.
    await db.prisma.contract.update({ where: { id: c.service }, data: { workspaceId: ws.b } });
    expect(await documentsStale()).toBe(0);
    expect(await ids(editorA, "kestrel", "-id")).toEqual([c.supply]);
    expect(await ids(both, "kestrel", "-id")).toEqual([c.secret, c.service, c.supply]);
    await db.prisma.contract.update({ where: { id: c.service }, data: { workspaceId: ws.a } });
    expect(await ids(editorA, "kestrel", "-id")).toEqual([c.service, c.supply]);
    expect(await documentsStale()).toBe(0);
  });

  // A server runs transactions side by side (the embedded database, one at a time).
  it.runIf(testDatabaseKind() === "postgres")("(PostgreSQL only) a party renamed while its contract moves leaves no document under the workspace it left", async () => {
    const [mover, editor] = [new pg.Client({ connectionString: db.url }), new pg.Client({ connectionString: db.url })];
    await Promise.all([mover.connect(), editor.connect()]);
    try {
      await mover.query("BEGIN");
      await mover.query("UPDATE contracts SET workspace_id = $1 WHERE id = $2", [ws.b, c.service]);
      await editor.query("BEGIN");
      const renamed = editor.query("UPDATE parties SET name = 'Walrus Paper AB' WHERE contract_id = $1 AND name = 'Nordic Paper AB'", [c.service]);
      // The party's change waits for the move (its refresh reads the contract) before the move commits.
      for (let waited = 0; ; waited += 20) {
        const { rows } = await mover.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'", [(editor as unknown as { processID: number }).processID]);
        if (rows.length > 0) break;
        if (waited > 5_000) throw new Error("the party's change did not wait for the move");
        await new Promise((r) => setTimeout(r, 20));
      }
      await mover.query("COMMIT");
      await renamed;
      await editor.query("COMMIT");
      expect(await documentsStale()).toBe(0);
      expect(await ids(editorA, "walrus")).toEqual([]);
      expect(await ids(admin, "walrus")).toEqual([c.service]);
    } finally {
      await Promise.all([mover.end(), editor.end()]);
      await db.prisma.contract.update({ where: { id: c.service }, data: { workspaceId: ws.a } });
      await db.prisma.party.updateMany({ where: { contractId: c.service, name: "Walrus Paper AB" }, data: { name: "Nordic Paper AB" } });
    }
  });
});

describe("the search document", () => {
  it("follows every kind of change in the change's own transaction", async () => {
    expect(await documentsStale()).toBe(0);
    // Rename.
    await db.prisma.contract.update({ where: { id: c.service }, data: { name: "Zebra deal" } });
    expect(await ids(admin, "zebra")).toEqual([c.service]);
    expect(await ids(admin, "service agreement")).toEqual([]);
    // A party added and removed by the product's services.
    const party = await createParty({ db: db.prisma, actor: actors.admin, contractId: c.lease, request: { type: "company", name: "Quokka Ltd", country_code: "SE", identification_number: "", participants: [{ name: "Quinn Q", email: "quinn@quokka.example" }] } as never });
    expect(await ids(admin, "quokka")).toEqual([c.lease]);
    await deleteParty({ db: db.prisma, actor: actors.admin, contractId: c.lease, partyId: party.id });
    expect(await ids(admin, "quokka")).toEqual([]);
    // A party renamed, a participant renamed and given another e-mail address.
    await db.prisma.party.updateMany({ where: { contractId: c.lease, name: "Lakeside Oy" }, data: { name: "Harbour Oy" } });
    expect(await ids(admin, "harbour")).toEqual([c.lease]);
    await db.prisma.participant.updateMany({ where: { email: "aino@lakeside.fi" }, data: { name: "Aino Korhonen", email: "aino@harbour.fi" } });
    expect(await ids(admin, "korhonen")).toEqual([c.lease]);
    expect(await ids(admin, "aino@harbour.fi")).toEqual([c.lease]);
    expect(await ids(admin, "aino@lakeside.fi")).toEqual([]);
    // A data field's value, by the product's service.
    const field = await db.prisma.contractDataField.findFirstOrThrow({ where: { contractId: c.service } });
    await updateDataField({ db: db.prisma, actor: actors.admin, contractId: c.service, dataField: { id: field.id }, value: "INV-98765" });
    expect(await ids(admin, "98765")).toEqual([c.service]);
    // The state, by publishing: a search filtered by state reads the document's (migration search_state).
    const inState = async (state: string) => (await list(admin, { q: "zebra", state })).data.map((x) => x.id);
    expect([await inState("draft"), await inState("pending")]).toEqual([[c.service], []]);
    await publishContract({ db: db.prisma, actor: actors.admin, contractId: c.service, linkOrigin: "https://x.example" });
    expect([await inState("draft"), await inState("pending")]).toEqual([[], [c.service]]);
    // The state and the name in one change: both triggers, the same state.
    await db.prisma.contract.update({ where: { id: c.service }, data: { state: "withdrawn", name: "Zebra deal, withdrawn" } });
    expect([await inState("pending"), await inState("withdrawn")]).toEqual([[], [c.service]]);
    expect(await documentsStale()).toBe(0);
    // The text.
    await db.prisma.contract.update({ where: { id: c.supply }, data: { body: { sections: [{ heading: "Pricing", text: "Prices follow the Zanzibar index." }] } } });
    expect(await ids(admin, "zanzibar")).toEqual([c.supply]);
    expect(await ids(admin, "kestrel", "id")).toEqual([c.service, c.secret]);
    // A rolled-back change leaves the document as it was.
    await db.prisma
      .$transaction(async (tx) => {
        await tx.contract.update({ where: { id: c.secret }, data: { name: "Rolled back" } });
        throw new Error("roll back");
      })
      .catch(() => undefined);
    expect(await ids(admin, "rolled")).toEqual([]);
    // A contract deleted takes its document with it.
    await db.prisma.contract.delete({ where: { id: c.secret } });
    expect(await ids(admin, "hidden")).toEqual([]);
    expect(await documentsStale()).toBe(0);
  });
});

describe("a long text's highlight", () => {
  it("is a window around the first match, found in one search whatever the text holds", async () => {
    const { workspaceId, templateId } = await db.prisma.contract.findUniqueOrThrow({ where: { id: c.lease } });
    const withText = async (name: string, text: string) => {
      const { id } = await createContract(db.prisma, { workspaceId, templateId, name, counterparties: [{ type: "company", name: "Longtext Oy", participants: [{ name: "Lena Long", email: "lena@longtext.example" }] }] });
      await db.prisma.contract.update({ where: { id }, data: { body: { sections: [{ heading: "Terms", text }] } } });
      return id;
    };
    // The match 150,000 characters in: 60 characters before it, the window of 160 from there.
    const filler = "lorem ipsum ".repeat(12_500);
    const far = await withText("Far match", `${filler}The Marrakesh clause applies to all deliveries made under this agreement. ${filler}`);
    const [found] = (await list(admin, { q: "marrakesh" })).data;
    expect(found!.id).toBe(far);
    const window = `${filler}The `.slice(-60);
    expect(found!._search!.matches).toEqual([
      { field: "text", label: "Terms", highlight: [`…${window}`, "Marrakesh", `${` clause applies to all deliveries made under this agreement. ${filler}`.slice(0, 160 - 60 - "Marrakesh".length)}…`] },
    ]);
    // Many searched words, one of them in the text 66,000 times: each text is searched once for its
    // first match (collecting every match took 1.4 s a text on PostgreSQL, longer than this test may run).
    const many = [];
    for (let i = 0; i < 25; i++) many.push(await withText(`Repeated ${i}`, `${"ab ".repeat(66_000)}c`));
    const repeated = await list(admin, { q: `${"ab ".repeat(32)}c`, sort: "id" });
    expect(repeated.data.map((x) => x.id)).toEqual(many);
    for (const item of repeated.data) {
      const [match, ...more] = item._search!.matches;
      expect(more).toEqual([]);
      expect(match!.highlight.join("")).toBe(`${"ab ".repeat(54).slice(0, 160)}…`);
      // Each "ab" marked; the one the window's end cuts through is not.
      expect(match!.highlight.filter((_, i) => i % 2 === 1).every((piece) => piece === "ab")).toBe(true);
    }
    // A window's cut through a word leaves no shorter word of it: `planet` cut to `net` or `et`
    // (the window starting one or two letters in), or to `plan` (ending a letter in).
    const cuts = [];
    for (const bs of [55, 56]) {
      const id = await withText(`Cut word ${bs}`, `${"x".repeat(200)} planet ${"b".repeat(bs)} net rest ${"c".repeat(150)}`);
      cuts.push(id);
      const [found] = (await list(admin, { q: '"net"' })).data.filter((x) => x.id === id);
      expect(found!._search!.matches[0]!.highlight.slice(0, 2)).toEqual([`…${"planet".slice(bs - 52)} ${"b".repeat(bs)} `, "net"]);
    }
    const ending = await withText("Cut word end", `plan ${"y".repeat(151)} planet ${"z".repeat(50)}`);
    const [endFound] = (await list(admin, { q: '"plan"' })).data.filter((x) => x.id === ending);
    expect(endFound!._search!.matches[0]!.highlight).toEqual(["", "plan", ` ${"y".repeat(151)} pla…`]);
    await db.prisma.contract.deleteMany({ where: { id: { in: [far, ending, ...cuts, ...many] } } });
  });
});

describe("a search: the way a sample of the newest documents chooses", () => {
  it("walks each partition whose newest documents hold the words, and pass the filters, when that fills the limit cheaper than a look-up, counting the other workspaces' documents a walk passes; else looks up", async () => {
    const workspace = await createWorkspace(db.prisma, { name: "Workspace C" });
    const { templateId } = await db.prisma.contract.findUniqueOrThrow({ where: { id: c.supply } });
    const make = async (name: string, state: "draft" | "pending" = "draft") => (await createContract(db.prisma, { workspaceId: workspace.id, templateId, name, state })).id;
    const made: number[] = [];
    for (const name of ["Omicron Sigma", "Plain one", "Plain two", "Plain three"]) made.push(await make(name));
    for (let i = 0; i < 8; i++) made.push(await make(`Kappa Lambda ${i}`, i >= 6 ? "pending" : "draft"));
    const [row] = await db.prisma.$queryRaw<{ part: string }[]>`SELECT tableoid::regclass::text AS part FROM contract_search WHERE workspace_id = ${workspace.id} LIMIT 1`;
    const inC = [Number(row!.part.replace(/\D/g, ""))];
    // The workspace is alone in its partition (no other workspace's document a walk would pass).
    expect(await db.prisma.$queryRawUnsafe(`SELECT DISTINCT workspace_id AS id FROM ${row!.part}`)).toEqual([{ id: workspace.id }]);
    // The partitions the sample has walked.
    const walked = async (q: string, more: Record<string, string> = {}, { sample = 10, limit = 3, all = false } = {}) => {
      const query = ZContractListQuerySchema.parse({ q, ...(all ? {} : { workspace_id: String(workspace.id) }), ...more });
      const ways = (await authenticateSessionUser(db.prisma, admin.id, searchWalksSql(query, q, limit, sample)))!.preloaded as boolean[];
      return ways.flatMap((walk, k) => (walk ? [k] : []));
    };
    try {
      // 12 contracts in the workspace, a sample of the newest 10: the walk when 3 · 10 · 10 <= 4 · hits · found · 12.
      expect(await walked("Kappa Lambda")).toEqual(inC); // 8 of the 10
      expect(await walked("Omicron Sigma")).toEqual([]); // none of them
      expect(await walked("Kappa Lambda", { state: "pending" })).toEqual(inC); // the pending are 2, both hold the words: 3 · 2 · 2 <= 4 · 2 · 2 · 2
      expect(await walked("Kappa Lambda", { state: "signed" })).toEqual([]); // none is signed
      expect(await walked("Kappa Lambda", {}, { limit: 1001 })).toEqual([]); // 1,001 cost more to walk to than to look up
      expect(await walked("Kappa Lambda", {}, { limit: 24 })).toEqual(inC); // 24 · 10 · 10 <= 4 · 8 · 8 · 12
      // A workspace beside it in its partition, with 4 contracts: a walk of the partition passes its
      // documents too, 16 for each 12 of C's (24 · 10 · 10 · 16/12 > 4 · 8 · 8 · 12), so it is looked up.
      const besideC = async (id: number) =>
        (await db.prisma.$queryRaw<{ beside: boolean }[]>`SELECT satisfies_hash_partition('contract_search'::regclass, ${SEARCH_PARTITIONS}::int, ${inC[0]}::int, ${id}::int) AS beside`)[0]!.beside;
      let neighbour = await createWorkspace(db.prisma, { name: "Workspace C's neighbour" });
      while (!(await besideC(neighbour.id))) {
        await db.prisma.workspace.delete({ where: { id: neighbour.id } });
        neighbour = await createWorkspace(db.prisma, { name: "Workspace C's neighbour" });
      }
      for (let i = 0; i < 4; i++) made.push((await createContract(db.prisma, { workspaceId: neighbour.id, templateId, name: `Neighbour ${i}` })).id);
      expect(await walked("Kappa Lambda", {}, { limit: 24 })).toEqual([]);
      expect(await walked("Kappa Lambda")).toEqual(inC); // 3 · 10 · 10 · 16/12 <= 4 · 8 · 8 · 12
      // Every workspace searched: the newest 10 are in the workspace's partition (its neighbour's 4 and 6 of
      // its own); only that partition is walked, the others (none of whose newest documents hold the words)
      // are looked up.
      expect(await walked("Kappa Lambda", {}, { all: true })).toEqual(inC);
    } finally {
      await db.prisma.contract.deleteMany({ where: { id: { in: made } } });
    }
  });
});
