import { afterAll, beforeAll, expect, test } from "vitest";
import { verifyPassword } from "better-auth/crypto";
import { hashApiToken } from "@/lib/domain/access";
import { DEMO_ADMIN_EMAIL, DEMO_CONTRACT_COUNT, seedDemoData, seedIfEmpty } from "@/lib/db/seed/demo";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

test("the demo data set is created once, with the given token and password", async () => {
  const result = await db.prisma.$transaction(
    (tx) => seedDemoData(tx, { apiToken: "demo-token-0123456789", adminPassword: "correct horse" }),
    { timeout: 120_000 },
  );
  expect(result.generated).toEqual({ password: false, token: false });
  expect(await seedIfEmpty(db.prisma)).toBeNull();

  const admin = await db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_ADMIN_EMAIL }, include: { accounts: true } });
  expect(admin.isAdmin).toBe(true);
  expect(await verifyPassword({ hash: admin.accounts[0]!.password!, password: "correct horse" })).toBe(true);
  const token = await db.prisma.apiToken.findUniqueOrThrow({ where: { tokenHash: hashApiToken("demo-token-0123456789") } });
  expect(token.prefix.length).toBeLessThan(16);

  expect(await db.prisma.contract.count()).toBe(DEMO_CONTRACT_COUNT);
  expect(await db.prisma.workspace.count()).toBeGreaterThanOrEqual(3);
  const states = await db.prisma.contract.groupBy({ by: ["state"], _count: true });
  expect(states.length).toBeGreaterThanOrEqual(4);
  const partyTypes = await db.prisma.party.groupBy({ by: ["type"], where: { myParty: false }, _count: true });
  expect(partyTypes.map((p) => p.type).sort()).toEqual(["company", "individual"]);

  // Non-admins have roles in some workspaces only; templates differ in what they offer.
  const viewer = await db.prisma.user.findUniqueOrThrow({ where: { email: "viewer@example.com" }, include: { memberships: true } });
  expect(viewer.memberships.every((m) => m.role === "viewer")).toBe(true);
  const channelSets = await db.prisma.template.findMany({ include: { deliveryChannels: true } });
  const shapes = new Set(channelSets.map((t) => t.deliveryChannels.map((c) => c.name).sort().join(",")));
  expect(shapes.size).toBeGreaterThanOrEqual(3);
  expect([...shapes]).toContain("email");
  expect([...shapes].some((s) => s.includes("sms"))).toBe(true);

  // Every contract has exactly one owner-side party.
  const owners = await db.prisma.party.groupBy({ by: ["contractId"], where: { myParty: true }, _count: true });
  expect(owners).toHaveLength(DEMO_CONTRACT_COUNT);
  expect(owners.every((o) => o._count === 1)).toBe(true);
});
