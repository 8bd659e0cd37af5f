// The dashboard (lib/api/json/dashboard.ts, lib/domain/dashboard.ts): each count is the count of the
// contracts list with the tile's query, for the caller's workspaces only.
import { afterAll, beforeAll, expect, test } from "vitest";
import { authenticateSessionUser, type TPreload } from "@/lib/api/auth";
import { contractListPreload } from "@/lib/api/json/contract";
import { dashboardPreload } from "@/lib/api/json/dashboard";
import { listCountOfEscaped } from "@/lib/db/sql";
import { createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import { dashboardQueries, type TDashboardTile } from "@/lib/domain/dashboard";
import { ZContractListQuerySchema } from "@/lib/schemas";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;
let me: { id: number; name: string; email: string };
let other: { id: number };
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

beforeAll(async () => {
  db = await createTestDatabase();
  const mine = await createWorkspace(db.prisma, {});
  const theirs = await createWorkspace(db.prisma, {});
  me = await createUser(db.prisma, { memberships: [{ workspaceId: mine.id, role: "editor" }] });
  other = await createUser(db.prisma, { memberships: [{ workspaceId: theirs.id, role: "editor" }] });
  const template = await createTemplate(db.prisma, { workspaceIds: [mine.id, theirs.id] });
  for (const ws of [mine, theirs]) {
    const make = (state: "draft" | "pending" | "declined", changes: object = {}, counterparties = [{ type: "individual" as const, participant: {} }]) =>
      createContract(db.prisma, { workspaceId: ws.id, templateId: template.id, state, counterparties }).then((c) =>
        db.prisma.contract.update({ where: { id: c.id }, data: changes }),
      );
    // Untouched drafts: one 20 days old (counts), one 10 days old (does not).
    await make("draft", { updatedAt: ago(20) });
    await make("draft", { updatedAt: ago(10) });
    // Expiring: in 3 days (counts), in 10 days (does not).
    await make("pending", { signingPeriodExpiresAt: new Date(Date.now() + 3 * DAY) });
    await make("pending", { signingPeriodExpiresAt: new Date(Date.now() + 10 * DAY) });
    // Declined 5 days ago (counts), 40 days ago (does not).
    await make("declined", { stateUpdatedAt: ago(5) });
    await make("declined", { stateUpdatedAt: ago(40) });
    // A failed invitation on a pending contract (counts).
    const bounced = await make("pending", { signingPeriodExpiresAt: new Date(Date.now() + 20 * DAY) });
    await db.prisma.participant.updateMany({ where: { party: { contractId: bounced.id, myParty: false } }, data: { deliveryStatus: "failure", deliveryFailedAt: new Date(), deliveryFailure: "550 no such user" } });
    // Waiting for my signature: invited (counts); another, not yet my turn (does not); another, decided (does not).
    for (const [invited, signState] of [[true, "undecided"], [false, "undecided"], [true, "signed"]] as const) {
      const c = await make("pending", { signingPeriodExpiresAt: new Date(Date.now() + 20 * DAY) });
      const party = await db.prisma.party.findFirstOrThrow({ where: { contractId: c.id, myParty: true } });
      await db.prisma.participant.create({
        data: { partyId: party.id, userId: me.id, name: me.name, email: me.email, deliveryChannel: "email", signMethod: "standard_esign", twoStepMethod: "none", signatory: true, signState, invitedAt: invited ? new Date() : null },
      });
    }
  }
});
afterAll(() => db.cleanup());

const read = async (userId: number, preload: TPreload) => (await authenticateSessionUser(db.prisma, userId, preload))!.preloaded;

test("each tile counts exactly what the contracts list with its query lists, in the caller's workspaces only", async () => {
  const asOf = new Date();
  const { counts, delivery_failures } = (await read(me.id, dashboardPreload(asOf))) as { counts: Record<TDashboardTile, number>; delivery_failures: { reason: string; email: string }[] };
  expect(counts).toEqual({ awaiting_me: 1, delivery_failed: 1, expiring: 1, declined: 1, untouched_drafts: 1, notice_deadlines: 0, ending: 0, renewed: 0 });
  expect(delivery_failures).toHaveLength(1);
  expect(delivery_failures[0]).toMatchObject({ reason: "550 no such user", email: expect.stringContaining("@example.org") });
  const queries = dashboardQueries(asOf);
  for (const [tile, query] of Object.entries(queries)) {
    const listed = await read(me.id, contractListPreload(ZContractListQuerySchema.parse(query), "https://x.example"));
    expect([tile, listCountOfEscaped(listed)]).toEqual([tile, counts[tile as TDashboardTile]]);
  }
  const theirs = (await read(other.id, dashboardPreload(asOf))) as { counts: Record<TDashboardTile, number> };
  expect(theirs.counts).toEqual({ awaiting_me: 0, delivery_failed: 1, expiring: 1, declined: 1, untouched_drafts: 1, notice_deadlines: 0, ending: 0, renewed: 0 });
});

test("a failed delivery leaves the dashboard once acted on (a new link clears it)", async () => {
  const before = ((await read(me.id, dashboardPreload(new Date()))) as { counts: Record<TDashboardTile, number> }).counts.delivery_failed;
  await db.prisma.participant.updateMany({ where: { deliveryFailedAt: { not: null }, party: { contract: { workspace: { memberships: { some: { userId: me.id } } } } } }, data: { deliveryFailedAt: null, deliveryFailure: "" } });
  const after = ((await read(me.id, dashboardPreload(new Date()))) as { counts: Record<TDashboardTile, number> }).counts.delivery_failed;
  expect([before, after]).toEqual([1, 0]);
});

test("the list's new filters refuse bad values with the field named", () => {
  for (const [key, value] of [["updated_before", "yesterday"], ["expires_before", "2026-13-01"], ["delivery_failed", "yes"], ["awaiting_me", "1"]] as const) {
    const parsed = ZContractListQuerySchema.safeParse({ [key]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual([key]);
  }
});
