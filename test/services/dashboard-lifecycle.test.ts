// The dashboard's lifecycle tiles (lib/domain/dashboard.ts, lib/api/json/dashboard.ts): notice
// deadlines in the next 30 days, contracts ending in the next 90 and those renewed this month, each
// counted exactly as the contracts list with its query counts, its first contracts in the list's
// order, and only from the caller's workspaces. Measured from a fixed instant.
import { afterAll, beforeAll, expect, test } from "vitest";
import { authenticateSessionUser, type TPreload } from "@/lib/api/auth";
import { contractListPreload } from "@/lib/api/json/contract";
import { dashboardPreload } from "@/lib/api/json/dashboard";
import { bytesFromEscaped } from "@/lib/db/sql";
import { createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import { DASHBOARD_ITEMS_SHOWN, dashboardQueries, type TDashboardTile } from "@/lib/domain/dashboard";
import { ZContractListQuerySchema } from "@/lib/schemas";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { setLifecycleColumnsForTest, type TLifecycleColumns } from "@/test/helpers/lifecycle-columns";

const AS_OF = new Date("2026-11-15T12:00:00Z");
let db: TestDatabase;
let me: { id: number };
let admin: { id: number };
const mine: Record<string, number> = {};
const theirs: Record<string, number> = {};

/** name → lifecycle; the windows' edges on both sides (today 2026-11-15, UTC). */
const MINE: Record<string, TLifecycleColumns> = {
  "notice today": { state: "active", noticeDeadline: "2026-11-15" },
  "notice +1": { state: "active", noticeDeadline: "2026-11-16" },
  "notice +2": { state: "active", noticeDeadline: "2026-11-17", renewedAt: "2026-11-01T00:00:00Z" },
  "notice +3": { state: "active", noticeDeadline: "2026-11-18" },
  "notice +4": { state: "active", noticeDeadline: "2026-11-19" },
  "notice +29": { state: "active", noticeDeadline: "2026-12-14" },
  "notice +30": { state: "active", noticeDeadline: "2026-12-15" },
  "notice yesterday": { state: "active", noticeDeadline: "2026-11-14", renewedAt: "2026-10-31T23:59:59.999Z" },
  "ends today": { state: "active", subState: "canceled", endsOn: "2026-11-15" },
  "ends +89": { state: "active", endsOn: "2027-02-12", renewedAt: "2026-11-10T08:00:00Z" },
  "ends +90": { state: "active", endsOn: "2027-02-13" },
  "ended yesterday": { state: "ended", endsOn: "2026-11-14" },
  // Ended today already where its workspace's day began earlier (Tokyo): no longer "ending".
  "ended today": { state: "ended", endsOn: "2026-11-15" },
};
const THEIRS: Record<string, TLifecycleColumns> = {
  "their notice today": { state: "active", noticeDeadline: "2026-11-15", endsOn: "2026-12-01", renewedAt: "2026-11-02T00:00:00Z" },
};

type TItems = { id: number; name: string; end_date: string | null; notice_deadline: string | null; renewed_time: string | null }[];
type TRead = { counts: Record<TDashboardTile, number>; items: Record<"notice_deadlines" | "ending" | "renewed", TItems> };

const read = async (userId: number, preload: TPreload) => (await authenticateSessionUser(db.prisma, userId, preload))!.preloaded;

beforeAll(async () => {
  db = await createTestDatabase();
  const a = await createWorkspace(db.prisma);
  const b = await createWorkspace(db.prisma);
  me = await createUser(db.prisma, { memberships: [{ workspaceId: a.id, role: "viewer" }] });
  admin = await createUser(db.prisma, { isAdmin: true });
  const template = await createTemplate(db.prisma, { workspaceIds: [a.id, b.id] });
  for (const [fixtures, ws, ids] of [[MINE, a.id, mine], [THEIRS, b.id, theirs]] as const) {
    for (const [name, life] of Object.entries(fixtures)) {
      const c = await createContract(db.prisma, { workspaceId: ws, templateId: template.id, name, counterparties: [] });
      await setLifecycleColumnsForTest(db.prisma, c.id, life);
      ids[name] = c.id;
    }
  }
});
afterAll(() => db.cleanup());

test("the lifecycle tiles count today and the days after within their windows, and this month's renewals, in the caller's workspaces", async () => {
  const { counts, items } = (await read(me.id, dashboardPreload(AS_OF))) as TRead;
  expect({ notice: counts.notice_deadlines, ending: counts.ending, renewed: counts.renewed }).toEqual({ notice: 6, ending: 2, renewed: 2 });
  // The first five of the list, soonest deadline first; the 29th day's is the sixth.
  expect(items.notice_deadlines.map((i) => i.name)).toEqual(["notice today", "notice +1", "notice +2", "notice +3", "notice +4"]);
  expect(items.notice_deadlines).toHaveLength(DASHBOARD_ITEMS_SHOWN);
  expect(items.notice_deadlines[0]).toEqual({ id: mine["notice today"], name: "notice today", workspace_id: expect.any(Number), end_date: null, notice_deadline: "2026-11-15", renewed_time: null });
  expect(items.ending.map((i) => [i.name, i.end_date])).toEqual([["ends today", "2026-11-15"], ["ends +89", "2027-02-12"]]);
  expect(items.renewed.map((i) => [i.name, i.renewed_time])).toEqual([["notice +2", "2026-11-01T00:00:00.000+00:00"], ["ends +89", "2026-11-10T08:00:00.000+00:00"]]);

  const all = (await read(admin.id, dashboardPreload(AS_OF))) as TRead;
  expect({ notice: all.counts.notice_deadlines, ending: all.counts.ending, renewed: all.counts.renewed }).toEqual({ notice: 7, ending: 3, renewed: 3 });
  expect(all.items.notice_deadlines.map((i) => i.name).slice(0, 2)).toEqual(["notice today", "their notice today"]);
});

test("each lifecycle tile's count and first contracts are those of the contracts list with its query", async () => {
  const queries = dashboardQueries(AS_OF);
  for (const user of [me, admin]) {
    const { counts, items } = (await read(user.id, dashboardPreload(AS_OF))) as TRead;
    for (const tile of ["notice_deadlines", "ending", "renewed"] as const) {
      const listed = await read(user.id, contractListPreload(ZContractListQuerySchema.parse(queries[tile]), "https://x.example"));
      const list = JSON.parse(`${bytesFromEscaped(listed as string[]).toString("utf8")}}`) as { count: number; data: { id: number }[] };
      expect([tile, counts[tile]]).toEqual([tile, list.count]);
      expect([tile, items[tile].map((i) => i.id)]).toEqual([tile, list.data.slice(0, DASHBOARD_ITEMS_SHOWN).map((c) => c.id)]);
    }
  }
});

test("a day that is still today somewhere is in the windows: at 20:00 in Los Angeles (04:00 UTC the next day) its deadline and end are listed", async () => {
  const { items } = (await read(me.id, dashboardPreload(new Date("2026-11-16T04:00:00Z")))) as TRead;
  expect(items.notice_deadlines[0]!.name).toBe("notice today");
  expect(items.ending.map((i) => i.name)).toEqual(["ends today", "ends +89", "ends +90"]);
});

test("the windows are measured from the instant asked: a day later, today's deadline has passed everywhere", () => {
  const next = dashboardQueries(new Date("2026-11-16T12:00:00Z"));
  expect(next.notice_deadlines).toEqual({ notice_deadline_after: "2026-11-16", notice_deadline_before: "2026-12-16", sort: "notice_deadline" });
  expect(next.ending).toEqual({ lifecycle_state: "active", ends_after: "2026-11-16", ends_before: "2027-02-14", sort: "end_date" });
  expect(dashboardQueries(new Date("2026-12-01T00:00:00Z")).renewed).toEqual({ renewed_after: "2026-12-01T00:00:00.000Z", sort: "notice_deadline" });
});
