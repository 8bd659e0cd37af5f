// The contracts list's lifecycle filters and sorts (docs/api.md "Pagination", "The contract's
// lifecycle in lists"): each checked on the product's SQL (the list's preload, read in the
// authentication's statement as the route reads it) and on the test oracle's Prisma read, against
// orders worked out by hand; an editor never sees or counts another workspace's contracts through them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateSessionUser } from "@/lib/api/auth";
import { contractListPreload } from "@/lib/api/json/contract";
import { bytesFromEscaped, listCountOfEscaped } from "@/lib/db/sql";
import { createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import { ZContractListQuerySchema } from "@/lib/schemas";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { setLifecycleColumnsForTest, type TLifecycleColumns } from "@/test/helpers/lifecycle-columns";
import { listContracts } from "@/test/oracle/reads";
import { actorOf } from "@/test/services/read-fixtures";

let db: TestDatabase;
const ids: number[] = [];
let admin: { id: number };
let editorA: { id: number };

/** Ten contracts in workspaces A and B (index = id order); null: a draft, no lifecycle. */
const FIXTURES: { ws: "A" | "B"; life: TLifecycleColumns | null }[] = [
  { ws: "A", life: { state: "active", endsOn: "2027-03-31", noticeDeadline: "2027-01-31", renewedAt: "2026-11-05T10:00:00Z" } },
  { ws: "B", life: { state: "active", subState: "canceled", endsOn: "2027-01-15" } },
  { ws: "A", life: { state: "ended", subState: "terminated", endsOn: "2026-10-01" } },
  { ws: "A", life: { state: "awaiting", endsOn: "2028-01-01", noticeDeadline: "2027-10-01" } },
  { ws: "B", life: { state: "active", noticeDeadline: "2027-02-28", renewedAt: "2026-10-20T00:00:00Z" } },
  { ws: "A", life: { state: "active", endsOn: "2027-01-15", noticeDeadline: "2026-12-15", renewedAt: "2026-11-01T00:00:00Z" } },
  { ws: "A", life: null },
  { ws: "B", life: { state: "ended", endsOn: "2026-06-30" } },
  { ws: "A", life: { state: "active", noticeDeadline: "2027-01-31" } },
  { ws: "B", life: { state: "active", subState: "canceled", endsOn: "2027-03-31" } },
];

/** Worked out by hand from the table: ties by id in the sort's direction, contracts without the date last either way. */
const SORTED = {
  end_date: [7, 2, 1, 5, 0, 9, 3, 4, 6, 8],
  "-end_date": [3, 9, 0, 5, 1, 2, 7, 8, 6, 4],
  notice_deadline: [5, 0, 8, 4, 3, 1, 2, 6, 7, 9],
  "-notice_deadline": [3, 4, 8, 0, 5, 9, 7, 6, 2, 1],
} as const;

/** Each filter with the fixtures it keeps, by hand; `inA` is what an editor of workspace A alone gets. */
const FILTERS: { query: Record<string, string>; all: number[]; inA: number[] }[] = [
  { query: { lifecycle_state: "active" }, all: [0, 1, 4, 5, 8, 9], inA: [0, 5, 8] },
  { query: { lifecycle_state: "awaiting" }, all: [3], inA: [3] },
  { query: { lifecycle_state: "ended" }, all: [2, 7], inA: [2] },
  { query: { lifecycle_state: "canceled" }, all: [1, 9], inA: [] },
  { query: { lifecycle_state: "terminated" }, all: [2], inA: [2] },
  { query: { ends_after: "2027-01-15" }, all: [0, 1, 3, 5, 9], inA: [0, 3, 5] },
  { query: { ends_before: "2027-01-15" }, all: [2, 7], inA: [2] },
  { query: { ends_after: "2027-01-01", ends_before: "2027-04-01" }, all: [0, 1, 5, 9], inA: [0, 5] },
  { query: { notice_deadline_after: "2027-01-31", notice_deadline_before: "2027-03-01" }, all: [0, 4, 8], inA: [0, 8] },
  { query: { notice_deadline_before: "2027-01-31" }, all: [5], inA: [5] },
  { query: { renewed_after: "2026-11-01T00:00:00Z" }, all: [0, 5], inA: [0, 5] },
  { query: { lifecycle_state: "active", ends_before: "2027-02-01", state: "signed" }, all: [1, 5], inA: [5] },
];

const parse = (query: Record<string, string>) => ZContractListQuerySchema.parse(query);

/** The list as the route answers it to `user`: count and ids, from the product's SQL. */
async function productList(user: { id: number }, query: Record<string, string>): Promise<{ count: number; ids: number[] }> {
  const read = await authenticateSessionUser(db.prisma, user.id, contractListPreload(parse(query), "https://example.test"));
  const head = bytesFromEscaped(read!.preloaded as string[]).toString("utf8");
  const answer = JSON.parse(`${head}}`) as { count: number; data: { id: number }[] };
  expect(answer.count).toBe(listCountOfEscaped(read!.preloaded));
  return { count: answer.count, ids: answer.data.map((c) => c.id) };
}

/** The same list by the oracle's Prisma read. */
async function oracleList(user: { id: number }, query: Record<string, string>): Promise<{ count: number; ids: number[] }> {
  const { count, rows } = await listContracts({ db: db.prisma, actor: await actorOf(db.prisma, user), query: parse(query) });
  return { count, ids: rows.map((r) => r.id) };
}

const idsOf = (indexes: readonly number[]) => indexes.map((i) => ids[i]!);

beforeAll(async () => {
  db = await createTestDatabase();
  const a = await createWorkspace(db.prisma);
  const b = await createWorkspace(db.prisma);
  const template = await createTemplate(db.prisma, { workspaceIds: [a.id, b.id] });
  admin = await createUser(db.prisma, { isAdmin: true });
  editorA = await createUser(db.prisma, { memberships: [{ workspaceId: a.id, role: "editor" }] });
  for (const fixture of FIXTURES) {
    const row = await createContract(db.prisma, { workspaceId: fixture.ws === "A" ? a.id : b.id, templateId: template.id, counterparties: [] });
    if (fixture.life) await setLifecycleColumnsForTest(db.prisma, row.id, fixture.life);
    ids.push(row.id);
  }
});
afterAll(() => db.cleanup());

describe("the contracts list's lifecycle filters", () => {
  it.each(FILTERS.map((f) => [JSON.stringify(f.query), f] as const))("%s keeps exactly its contracts, counted exactly, for an admin and an editor of one workspace", async (_name, filter) => {
    for (const read of [productList, oracleList]) {
      expect(await read(admin, filter.query)).toEqual({ count: filter.all.length, ids: idsOf(filter.all) });
      expect(await read(editorA, filter.query)).toEqual({ count: filter.inA.length, ids: idsOf(filter.inA) });
    }
  });

  it("counts every match while paging (the count reads rows, not the kept per-workspace totals)", async () => {
    const page = await productList(admin, { lifecycle_state: "active", limit: "2", offset: "2", sort: "end_date" });
    expect(page).toEqual({ count: 6, ids: idsOf([0, 9]) });
  });

  it("refuses a lifecycle state or a date it does not know", () => {
    for (const bad of [{ lifecycle_state: "signed" }, { ends_before: "2027-02-30" }, { notice_deadline_after: "2027-01-01T00:00:00Z" }, { renewed_after: "yesterday" }]) {
      expect(ZContractListQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("the contracts list's date sorts", () => {
  it.each(Object.entries(SORTED))("sorts by %s, contracts without the date last, ties by id in the sort's direction", async (sort, order) => {
    expect(await productList(admin, { sort })).toEqual({ count: 10, ids: idsOf(order) });
    expect(await oracleList(admin, { sort })).toEqual({ count: 10, ids: idsOf(order) });
    // An editor of A gets the same order, only A's contracts.
    const inA = order.filter((i) => FIXTURES[i]!.ws === "A");
    expect(await productList(editorA, { sort })).toEqual({ count: inA.length, ids: idsOf(inA) });
  });

  it("pages through a date sort without skipping or repeating across ties and nulls", async () => {
    const seen: number[] = [];
    for (let offset = 0; offset < 10; offset += 3) seen.push(...(await productList(admin, { sort: "-end_date", limit: "3", offset: String(offset) })).ids);
    expect(seen).toEqual(idsOf(SORTED["-end_date"]));
  });
});
