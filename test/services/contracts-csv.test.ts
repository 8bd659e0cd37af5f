// GET /v1/contracts/export.csv's body (lib/api/contracts-csv.ts): parsed back with csv-parse, every
// sort and filter gives the contracts list's rows in the list's order (the list's own SQL is the
// reference), read in keyset batches across ties and nulls; only the caller's workspaces; formula
// cells neutralised; and the stream reads a batch only when pulled.
import { PrismaPg } from "@prisma/adapter-pg";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateSessionUser, loadUserActor } from "@/lib/api/auth";
import { CONTRACT_CSV_COLUMNS, contractsCsvStream } from "@/lib/api/contracts-csv";
import { contractListPreload } from "@/lib/api/json/contract";
import { bytesFromEscaped } from "@/lib/db/sql";
import { createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import type { Actor } from "@/lib/domain/actor";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { CONTRACT_SORTS, ZContractExportQuerySchema, ZContractListQuerySchema } from "@/lib/schemas";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { setLifecycleColumnsForTest, type TLifecycleColumns } from "@/test/helpers/lifecycle-columns";

let db: TestDatabase;
let admin: { id: number };
let editorA: { id: number };
const actors: Record<"admin" | "editorA", Actor> = {} as never;
const ids: number[] = [];

/** Names, times and dates that tie, nulls among the dates, two workspaces. */
const T0 = Date.parse("2026-01-01T00:00:00Z");
const FIXTURES: { ws: "A" | "B"; name: string; created: number; updated: number; life?: TLifecycleColumns }[] = [
  { ws: "A", name: "Bravo", created: 2, updated: 1, life: { state: "active", endsOn: "2027-03-31", noticeDeadline: "2027-01-31", renewals: 2, periodEndDate: "2027-03-31" } },
  { ws: "B", name: "Alpha", created: 1, updated: 1, life: { state: "active", subState: "canceled", endsOn: "2027-01-15" } },
  { ws: "A", name: "Bravo", created: 2, updated: 3 },
  { ws: "A", name: "alpha", created: 0, updated: 1, life: { state: "ended", subState: "terminated", endsOn: "2027-01-15" } },
  { ws: "B", name: "Charlie", created: 5, updated: 0, life: { state: "active", noticeDeadline: "2027-01-31" } },
  { ws: "A", name: "Delta", created: 5, updated: 4, life: { state: "awaiting", endsOn: "2028-01-01", noticeDeadline: "2027-10-01" } },
  { ws: "A", name: "Alpha", created: 3, updated: 4 },
  { ws: "B", name: "Echo", created: 4, updated: 2, life: { state: "active", endsOn: "2027-03-31", noticeDeadline: "2026-12-01" } },
];

/** The bytes as text, the byte order mark kept (Response.text() would drop it). */
const csvOf = async (stream: ReadableStream<Uint8Array>) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
const rowsOf = (text: string) => parse(text, { bom: true, columns: true }) as Record<(typeof CONTRACT_CSV_COLUMNS)[number], string>[];

async function exportRows(who: "admin" | "editorA", query: Record<string, string>, batchRows: number) {
  return rowsOf(await csvOf(await contractsCsvStream({ db: db.prisma, actor: actors[who], query: ZContractExportQuerySchema.parse(query), batchRows })));
}

/** The contracts list's ids for the same query (the product's SQL), all on one page. */
async function listIds(user: { id: number }, query: Record<string, string>): Promise<number[]> {
  const read = await authenticateSessionUser(db.prisma, user.id, contractListPreload(ZContractListQuerySchema.parse({ ...query, limit: "100" }), "https://x.example"));
  return (JSON.parse(`${bytesFromEscaped(read!.preloaded as string[]).toString("utf8")}}`) as { data: { id: number }[] }).data.map((c) => c.id);
}

beforeAll(async () => {
  db = await createTestDatabase();
  const a = await createWorkspace(db.prisma, { name: "Alpha workspace" });
  const b = await createWorkspace(db.prisma, { name: "Beta workspace" });
  const template = await createTemplate(db.prisma, { workspaceIds: [a.id, b.id] });
  admin = await createUser(db.prisma, { isAdmin: true });
  editorA = await createUser(db.prisma, { memberships: [{ workspaceId: a.id, role: "editor" }] });
  actors.admin = (await loadUserActor(db.prisma, admin, { via: "session", apiTokenId: null }))!;
  actors.editorA = (await loadUserActor(db.prisma, editorA, { via: "session", apiTokenId: null }))!;
  for (const f of FIXTURES) {
    const c = await createContract(db.prisma, {
      workspaceId: f.ws === "A" ? a.id : b.id,
      templateId: template.id,
      name: f.name,
      createdAt: new Date(T0 + f.created * 60_000),
      counterparties: [{ type: "company", name: "Buyer AB", participants: [{}] }, { type: "individual", participant: { name: "Ida Svensson" } }],
    });
    if (f.life) await setLifecycleColumnsForTest(db.prisma, c.id, f.life);
    await db.prisma.contract.update({ where: { id: c.id }, data: { updatedAt: new Date(T0 + f.updated * 60_000) } });
    ids.push(c.id);
  }
});
afterAll(() => db.cleanup());

describe("the contracts CSV", () => {
  // `relevance` ranks a search: test/services/contract-search.test.ts.
  it.each(CONTRACT_SORTS.filter((sort) => sort !== "relevance").map((sort) => [sort]))("sorted by %s, in batches of 3 or 1, holds exactly the list's contracts in the list's order, per caller", async (sort) => {
    for (const [who, user] of [["admin", admin], ["editorA", editorA]] as const) {
      const expected = await listIds(user, { sort });
      expect(expected.length).toBe(who === "admin" ? 8 : 5);
      for (const batchRows of [3, 1]) {
        expect((await exportRows(who, { sort }, batchRows)).map((r) => Number(r.id)), `${who} ${sort} ${batchRows}`).toEqual(expected);
      }
    }
  });

  const filters: Record<string, string>[] = [
    { lifecycle_state: "active" },
    { ends_after: "2027-01-15", sort: "-end_date" },
    { notice_deadline_before: "2027-02-01", sort: "notice_deadline" },
    { q: "ALPHA", sort: "name" },
    { workspace_id: "999999" },
  ];
  it.each(filters)(
    "applies the list's filters: %j",
    async (query) => {
      for (const [who, user] of [["admin", admin], ["editorA", editorA]] as const) {
        expect((await exportRows(who, query, 2)).map((r) => Number(r.id))).toEqual(await listIds(user, query));
      }
    },
  );

  it("writes a header and each contract's values, BOM first and CRLF line ends", async () => {
    const text = await csvOf(await contractsCsvStream({ db: db.prisma, actor: actors.admin, query: ZContractExportQuerySchema.parse({}) }));
    expect(text.startsWith(`\uFEFF${CONTRACT_CSV_COLUMNS.join(",")}\r\n`)).toBe(true);
    const first = rowsOf(text)[0]!;
    expect(first).toEqual({
      id: String(ids[0]),
      name: "Bravo",
      state: "signed",
      workspace_id: expect.any(String),
      workspace: "Alpha workspace",
      lifecycle_state: "active",
      lifecycle_sub_state: "",
      start_date: "",
      period_end_date: "2027-03-31",
      end_date: "2027-03-31",
      notice_deadline: "2027-01-31",
      renewals: "2",
      created_time: "2026-01-01T00:02:00.000+00:00",
      updated_time: "2026-01-01T00:01:00.000+00:00",
      counterparties: "Buyer AB; Ida Svensson",
    });
  });

  it("neutralises cells a spreadsheet would run as a formula, and keeps commas, quotes and line breaks whole", async () => {
    const ws = await createWorkspace(db.prisma, { name: "@Formula workspace" });
    const template = await createTemplate(db.prisma, { workspaceIds: [ws.id] });
    const names = ['=HYPERLINK("http://evil.example","x")', "+1+2", "-3", "@SUM(A1)", "\tTabbed", "\rReturn", 'Plain, "quoted"\nname', "a=b"];
    for (const name of names) {
      await createContract(db.prisma, { workspaceId: ws.id, templateId: template.id, name, counterparties: [{ type: "company", name: "=cmd|' /C calc'!A0", participants: [{}] }] });
    }
    const rows = await exportRows("admin", { workspace_id: String(ws.id) }, 3);
    expect(rows.map((r) => r.name)).toEqual([`'=HYPERLINK("http://evil.example","x")`, "'+1+2", "'-3", "'@SUM(A1)", "'\tTabbed", "'\rReturn", 'Plain, "quoted"\nname', "a=b"]);
    expect(new Set(rows.map((r) => r.counterparties))).toEqual(new Set(["'=cmd|' /C calc'!A0"]));
    expect(new Set(rows.map((r) => r.workspace))).toEqual(new Set(["'@Formula workspace"]));
  });
});

describe("the contracts CSV streams", () => {
  it("runs one statement per batch, the first before the stream is made, the next only when the reader pulls: no row is read ahead", async () => {
    // A client of its own that reports every statement it sends.
    const counting = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url, max: 2 }), log: [{ emit: "event", level: "query" }] });
    const statements: string[] = [];
    counting.$on("query", (event) => statements.push(event.query));
    try {
      const stream = await contractsCsvStream({ db: counting, actor: actors.admin, query: ZContractExportQuerySchema.parse({ sort: "-end_date" }), batchRows: 2 });
      expect(stream).toBeInstanceOf(ReadableStream);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/LIMIT \$\d+::int/);
      const reader = stream.getReader();
      const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
      let text = decoder.decode((await reader.read()).value); // the byte order mark
      text += decoder.decode((await reader.read()).value); // the header
      text += decoder.decode((await reader.read()).value); // the first batch, read already
      expect(statements).toHaveLength(1);
      text += decoder.decode((await reader.read()).value);
      expect(statements).toHaveLength(2);
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
      const total = await listIds(admin, { sort: "-end_date" });
      // 16 contracts by now (the formula test's included), 2 a batch, and the empty batch that ends it.
      expect(statements).toHaveLength(Math.floor(total.length / 2) + 1);
      expect(rowsOf(text).map((r) => Number(r.id))).toEqual(total);
    } finally {
      await counting.$disconnect();
    }
  });
});
