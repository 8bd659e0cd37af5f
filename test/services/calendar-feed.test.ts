// The calendar feed (lib/services/calendar-feed, lib/api/calendar-feed-ics.ts): the secret is kept
// only as its hash, renewing kills the old one, revoking kills it; an inactive user has none; the
// events are the notice deadlines and end dates of the contracts the owner may see now, within the
// bounds; and the text, parsed by ical.js, holds all-day events with stable UIDs and links.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadUserActor } from "@/lib/api/auth";
import { calendarFeedIcs } from "@/lib/api/calendar-feed-ics";
import { createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import type { TUserActor } from "@/lib/domain/actor";
import { hashCalendarFeedToken } from "@/lib/domain/calendar-feed";
import { findCalendarFeedOwner } from "@/lib/services/calendar-feed/find-calendar-feed-owner";
import { getCalendarFeed } from "@/lib/services/calendar-feed/get-calendar-feed";
import { listCalendarFeedEvents } from "@/lib/services/calendar-feed/list-calendar-feed-events";
import { renewCalendarFeed } from "@/lib/services/calendar-feed/renew-calendar-feed";
import { revokeCalendarFeed } from "@/lib/services/calendar-feed/revoke-calendar-feed";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { parseIcs } from "@/test/helpers/ical";
import { setLifecycleColumnsForTest } from "@/test/helpers/lifecycle-columns";

const TODAY = "2026-11-15";
let db: TestDatabase;
let ws: { a: number; b: number };
const users = {} as Record<"viewerA" | "admin" | "inactive", { id: number; name: string }>;
const c = {} as Record<"a1" | "a2" | "aFar" | "aOld" | "b1", number>;

const actorOf = async (user: { id: number }) => (await loadUserActor(db.prisma, user, { via: "session", apiTokenId: null })) as TUserActor;

beforeAll(async () => {
  db = await createTestDatabase();
  const a = await createWorkspace(db.prisma, { name: "Alpha" });
  const b = await createWorkspace(db.prisma, { name: "Beta" });
  ws = { a: a.id, b: b.id };
  users.viewerA = await createUser(db.prisma, { name: "Vera Viewer", memberships: [{ workspaceId: a.id, role: "viewer" }] });
  users.admin = await createUser(db.prisma, { isAdmin: true });
  users.inactive = await createUser(db.prisma, { memberships: [{ workspaceId: a.id, role: "editor" }] });
  const template = await createTemplate(db.prisma, { workspaceIds: [a.id, b.id] });
  const make = async (workspaceId: number, name: string) => (await createContract(db.prisma, { workspaceId, templateId: template.id, name, counterparties: [] })).id;
  c.a1 = await make(a.id, "Cleaning, office; \"Main\"");
  c.a2 = await make(a.id, "Software licence");
  c.aFar = await make(a.id, "Far lease");
  c.aOld = await make(a.id, "Old deal");
  c.b1 = await make(b.id, "Beta supply");
  await setLifecycleColumnsForTest(db.prisma, c.a1, { state: "active", noticeDeadline: "2027-01-31", endsOn: "2027-03-31" });
  await setLifecycleColumnsForTest(db.prisma, c.a2, { state: "ended", endsOn: "2026-11-01" });
  await setLifecycleColumnsForTest(db.prisma, c.aFar, { state: "active", endsOn: "2028-11-16", noticeDeadline: "2028-11-15" });
  await setLifecycleColumnsForTest(db.prisma, c.aOld, { state: "ended", endsOn: "2026-10-14" });
  await setLifecycleColumnsForTest(db.prisma, c.b1, { state: "active", noticeDeadline: "2026-12-01" });
});
afterAll(() => db.cleanup());

describe("the feed's secret", () => {
  it("is stored only as its hash; renewing replaces it, revoking ends it", async () => {
    const actor = await actorOf(users.viewerA);
    expect(await getCalendarFeed({ db: db.prisma, actor })).toEqual({ active: false });
    const { token: first } = await renewCalendarFeed({ db: db.prisma, actor });
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await db.prisma.user.findUniqueOrThrow({ where: { id: users.viewerA.id } });
    expect(stored.calendarFeedTokenHash).toBe(hashCalendarFeedToken(first));
    expect(JSON.stringify(stored)).not.toContain(first);
    expect(await findCalendarFeedOwner({ db: db.prisma, token: first })).toEqual({ id: users.viewerA.id });

    const { token: second } = await renewCalendarFeed({ db: db.prisma, actor });
    expect(second).not.toBe(first);
    expect(await findCalendarFeedOwner({ db: db.prisma, token: first })).toBeNull();
    expect(await findCalendarFeedOwner({ db: db.prisma, token: second })).toEqual({ id: users.viewerA.id });

    await revokeCalendarFeed({ db: db.prisma, actor });
    expect(await findCalendarFeedOwner({ db: db.prisma, token: second })).toBeNull();
    expect(await getCalendarFeed({ db: db.prisma, actor })).toEqual({ active: false });
    // Each change is in the audit trail, once.
    const actions = (await db.prisma.auditEvent.findMany({ where: { entityType: "user", entityId: users.viewerA.id }, orderBy: { id: "asc" } })).map((e) => e.action);
    expect(actions).toEqual(["user.calendar_feed_create", "user.calendar_feed_renew", "user.calendar_feed_revoke"]);
    await revokeCalendarFeed({ db: db.prisma, actor });
    expect(await db.prisma.auditEvent.count({ where: { entityType: "user", entityId: users.viewerA.id } })).toBe(3);
  });

  it("finds nobody for an inactive user's secret", async () => {
    const { token } = await renewCalendarFeed({ db: db.prisma, actor: await actorOf(users.inactive) });
    expect(await findCalendarFeedOwner({ db: db.prisma, token })).toEqual({ id: users.inactive.id });
    await db.prisma.user.update({ where: { id: users.inactive.id }, data: { active: false } });
    expect(await findCalendarFeedOwner({ db: db.prisma, token })).toBeNull();
  });
});

describe("the feed's events", () => {
  it("are the visible contracts' notice deadlines and end dates from 31 days back to 24 months ahead, soonest first", async () => {
    const events = await listCalendarFeedEvents({ db: db.prisma, actor: await actorOf(users.viewerA), today: TODAY });
    expect(events.map((e) => [e.contractId, e.kind, e.date])).toEqual([
      [c.a2, "end_date", "2026-11-01"],
      [c.a1, "notice_deadline", "2027-01-31"],
      [c.a1, "end_date", "2027-03-31"],
      [c.aFar, "notice_deadline", "2028-11-15"],
    ]);
    const all = await listCalendarFeedEvents({ db: db.prisma, actor: await actorOf(users.admin), today: TODAY });
    expect(all.map((e) => e.contractId)).toContain(c.b1);
    expect(all.map((e) => e.contractId)).not.toContain(c.aOld);
  });

  it("follow the owner's workspaces at each read: a membership removed takes its contracts out", async () => {
    const other = await createUser(db.prisma, { memberships: [{ workspaceId: ws.b, role: "viewer" }] });
    expect((await listCalendarFeedEvents({ db: db.prisma, actor: await actorOf(other), today: TODAY })).map((e) => e.contractId)).toEqual([c.b1]);
    await db.prisma.workspaceMembership.deleteMany({ where: { userId: other.id } });
    expect(await listCalendarFeedEvents({ db: db.prisma, actor: await actorOf(other), today: TODAY })).toEqual([]);
  });

  it("are written as iCalendar that ical.js reads back: all-day, stable UIDs, summaries and links, CRLF lines", async () => {
    const events = await listCalendarFeedEvents({ db: db.prisma, actor: await actorOf(users.viewerA), today: TODAY });
    const text = calendarFeedIcs(events, { origin: "https://contracts.example.com", ownerName: "Vera Viewer", now: new Date(`${TODAY}T10:00:00Z`) });
    expect(text.split("\r\n").every((line) => !line.includes("\n"))).toBe(true);
    expect(text.split("\r\n").every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const parsed = parseIcs(text);
    expect(parsed.name).toBe("Contracts — Vera Viewer");
    expect(parsed.events.map((e) => [e.summary, e.date, e.allDay])).toEqual([
      ["Contract ends: Software licence", "2026-11-01", true],
      ['Notice deadline: Cleaning, office; "Main"', "2027-01-31", true],
      ['Contract ends: Cleaning, office; "Main"', "2027-03-31", true],
      ["Notice deadline: Far lease", "2028-11-15", true],
    ]);
    expect(parsed.events[1]).toMatchObject({ uid: `contract-${c.a1}-notice_deadline-2027-01-31@contracts.example.com`, url: `https://contracts.example.com/contracts/${c.a1}` });
    // The same contract, kind and date is the same UID at the next fetch.
    const again = parseIcs(calendarFeedIcs(events, { origin: "https://contracts.example.com", ownerName: "Vera Viewer", now: new Date() }));
    expect(again.events.map((e) => e.uid)).toEqual(parsed.events.map((e) => e.uid));
  });
});
