import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import { ZContractListQuerySchema, type TContractListQuery } from "@/lib/schemas";
import { listContracts } from "@/test/oracle/reads";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { actorOf, anonymousAdmin } from "@/test/services/read-fixtures";

let db: TestDatabase;
let ws: { a: number; b: number };
let editor: Awaited<ReturnType<typeof actorOf>>;
/** The fixtures' ids, in creation (= id) order. */
const ids: number[] = [];

/**
 * Ten contracts whose order under every sort differs from their id order and from each other's:
 * names repeat (Alpha, Bravo, Charlie, Echo twice) and two updated times are equal, so the id
 * tie-break is needed too. Times are minutes after 2024-01-01; updated_time is set apart from
 * created_time. Names are all capitalised ASCII so every collation orders them alike.
 */
const FIXTURES = [
  { name: "Echo", created: 5, updated: 3 },
  { name: "Alpha", created: 2, updated: 8 },
  { name: "Delta", created: 7, updated: 0 },
  { name: "Alpha", created: 0, updated: 5 },
  { name: "Charlie", created: 6, updated: 1 },
  { name: "Bravo", created: 1, updated: 6 },
  { name: "Echo", created: 9, updated: 2 },
  { name: "Bravo", created: 3, updated: 3 },
  { name: "Foxtrot", created: 8, updated: 9 },
  { name: "Charlie", created: 4, updated: 7 },
];
/** Each ascending sort as fixture indexes, worked out by hand from the table above (ties by index = id). */
const ASCENDING = {
  id: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  name: [1, 3, 5, 7, 4, 9, 2, 0, 6, 8],
  created_time: [3, 5, 1, 7, 9, 0, 4, 2, 8, 6],
  updated_time: [2, 4, 6, 0, 7, 3, 5, 9, 1, 8],
} as const;

/** The list query as the route parses it from the query string. */
const query = (q: Record<string, string> = {}): TContractListQuery => ZContractListQuerySchema.parse(q);

beforeAll(async () => {
  db = await createTestDatabase();
  const a = await createWorkspace(db.prisma);
  const b = await createWorkspace(db.prisma);
  ws = { a: a.id, b: b.id };
  const template = await createTemplate(db.prisma, { workspaceIds: [a.id, b.id] });
  const user = await createUser(db.prisma, { memberships: [{ workspaceId: a.id, role: "editor" }] });
  editor = await actorOf(db.prisma, user);
  const base = Date.parse("2024-01-01T00:00:00Z");
  for (const [i, fixture] of FIXTURES.entries()) {
    const row = await createContract(db.prisma, {
      workspaceId: i % 2 === 0 ? a.id : b.id,
      templateId: template.id,
      name: fixture.name,
      state: i % 3 === 0 ? "signed" : "draft",
      owner: user,
      createdAt: new Date(base + fixture.created * 60_000),
      counterparties: [{ type: "company", participants: [{}] }, { type: "individual", participant: {} }],
    });
    await db.prisma.contract.update({ where: { id: row.id }, data: { updatedAt: new Date(base + fixture.updated * 60_000) } });
    ids.push(row.id);
  }
});
afterAll(() => db.cleanup());

describe("listContracts", () => {
  it("lists every contract for an admin, by id", async () => {
    const { count, rows } = await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query() });
    expect(count).toBe(10);
    expect(rows.map((r) => r.id)).toEqual(ids);
  });

  it("limits the page and the count to the actor's workspaces", async () => {
    const { count, rows } = await listContracts({ db: db.prisma, actor: editor, query: query() });
    expect(count).toBe(5);
    expect(rows.every((r) => r.workspaceId === ws.a)).toBe(true);
  });

  it("filters by workspace and state; a workspace the actor cannot see is simply empty", async () => {
    const signed = await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query({ state: "signed", workspace_id: String(ws.a) }) });
    expect(signed.count).toBe(2);
    expect(signed.rows.every((r) => r.state === "signed" && r.workspaceId === ws.a)).toBe(true);
    const hidden = await listContracts({ db: db.prisma, actor: editor, query: query({ workspace_id: String(ws.b) }) });
    expect(hidden).toEqual({ count: 0, rows: [] });
  });

  it.each(Object.keys(ASCENDING) as (keyof typeof ASCENDING)[])("sorts by %s and by its reverse (-), ties broken by id in the same direction: the whole id sequence", async (sort) => {
    const expected = ASCENDING[sort].map((i) => ids[i]!);
    if (sort !== "id") expect(expected, "the fixture must order differently from id").not.toEqual(ids);
    const asc = await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query({ sort }) });
    expect(asc.rows.map((r) => r.id)).toEqual(expected);
    const desc = await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query({ sort: `-${sort}` }) });
    expect(desc.rows.map((r) => r.id)).toEqual([...expected].reverse());
  });

  it("pages through a sort without skipping or repeating across the tie", async () => {
    const pages = [];
    for (let offset = 0; offset < 10; offset += 3) {
      pages.push(...(await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query({ sort: "-updated_time", limit: "3", offset: String(offset) }) })).rows);
    }
    expect(pages.map((r) => r.id)).toEqual(ASCENDING.updated_time.map((i) => ids[i]!).reverse());
  });

  it("pages with limit and offset without changing count; past the end is empty", async () => {
    const page = await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query({ limit: "3", offset: "3" }) });
    const all = await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query() });
    expect(page.count).toBe(10);
    expect(page.rows.map((r) => r.id)).toEqual(all.rows.slice(3, 6).map((r) => r.id));
    expect(await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query({ offset: "50" }) })).toEqual({ count: 10, rows: [] });
  });

  it("attaches each contract's parties, owner side first", async () => {
    const { rows } = await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query({ limit: "2" }) });
    for (const row of rows) {
      expect(row.parties.map((p) => [p.type, p.myParty, p.contractId])).toEqual([
        ["company", true, row.id],
        ["company", false, row.id],
        ["individual", false, row.id],
      ]);
    }
  });
});

describe("listContracts query count", () => {
  it("reads a page of 100 contracts with their parties in three queries", async () => {
    const workspace = await createWorkspace(db.prisma);
    const template = await createTemplate(db.prisma, { workspaceIds: [workspace.id] });
    const counterparties = [{ type: "company" as const, participants: [{}, {}] }, { type: "individual" as const, participant: {} }];
    await db.prisma.$transaction(
      async (tx) => {
        for (let i = 0; i < 100; i++) await createContract(tx, { workspaceId: workspace.id, templateId: template.id, counterparties });
      },
      { timeout: 120_000 },
    );

    // A client of its own that reports every statement it sends.
    const counting = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url, max: 2 }), log: [{ emit: "event", level: "query" }] });
    const statements: string[] = [];
    counting.$on("query", (event) => statements.push(event.query));
    try {
      const { count, rows } = await listContracts({
        db: counting,
        actor: anonymousAdmin,
        query: query({ workspace_id: String(workspace.id), limit: "100" }),
      });
      expect(count).toBe(100);
      expect(rows).toHaveLength(100);
      expect(rows.every((r) => r.parties.length === 3)).toBe(true);
      expect(statements).toHaveLength(3);
    } finally {
      await counting.$disconnect();
    }
  });
});
