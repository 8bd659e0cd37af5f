import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import { ZContractListQuerySchema, type TContractListQuery } from "@/lib/schemas";
import { listContracts } from "@/lib/services/contracts/list-contracts";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { actorOf, anonymousAdmin } from "@/test/services/read-fixtures";

let db: TestDatabase;
let ws: { a: number; b: number };
let editor: Awaited<ReturnType<typeof actorOf>>;

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
  // Names repeat so that sorting by name needs the id tie-break; times are distinct per contract.
  const names = ["Delta", "alpha", "Charlie", "Bravo", "alpha"];
  for (let i = 0; i < 10; i++) {
    await createContract(db.prisma, {
      workspaceId: i % 2 === 0 ? a.id : b.id,
      templateId: template.id,
      name: names[i % names.length]!,
      state: i % 3 === 0 ? "signed" : "draft",
      owner: user,
      createdAt: new Date(base + (10 - i) * 60_000),
      counterparties: [{ type: "company", participants: [{}] }, { type: "individual", participant: {} }],
    });
  }
});
afterAll(() => db.cleanup());

describe("listContracts", () => {
  it("lists every contract for an admin, by id", async () => {
    const { count, rows } = await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query() });
    expect(count).toBe(10);
    const ids = rows.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
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

  it("sorts by name (case as the database orders it) with ties broken by id, and reverses exactly with -", async () => {
    const asc = (await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query({ sort: "name" }) })).rows;
    const desc = (await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query({ sort: "-name" }) })).rows;
    expect(desc.map((r) => r.id)).toEqual(asc.map((r) => r.id).reverse());
    for (let i = 1; i < asc.length; i++) {
      const [prev, cur] = [asc[i - 1]!, asc[i]!];
      if (prev.name === cur.name) expect(prev.id).toBeLessThan(cur.id);
    }
  });

  it("sorts by created_time", async () => {
    const { rows } = await listContracts({ db: db.prisma, actor: anonymousAdmin, query: query({ sort: "created_time" }) });
    const times = rows.map((r) => r.createdAt.getTime());
    expect(times).toEqual([...times].sort((x, y) => x - y));
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
