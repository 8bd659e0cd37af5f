// Migration `staff_end_on_first_instant` (prisma/migrations): an end kept as an instant before
// `staff_end_on` becomes a last day when the instant began a day in the workspace's zone, also on a
// day that begins at 01:00 (its clocks jump over midnight), and stays an instant otherwise. The
// rows are shaped as the code before `staff_end_on` wrote them; the migration's own file runs.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createContract } from "@/lib/db/seed/factories";
import { MIGRATIONS_DIR } from "@/lib/db/migration-files";
import { splitSqlScript } from "@/lib/db/sql-script";
import type { TestDatabase } from "@/test/helpers/db";
import { createStaff, createTestWorld, ownerOf } from "@/test/helpers/world";

let db: TestDatabase;
let ws: { id: number };
let template: { id: number };
beforeAll(async () => {
  ({ db, ws, template } = await createTestWorld());
  await db.prisma.workspace.update({ where: { id: ws.id }, data: { timeZone: "America/Santiago" } });
});
afterAll(() => db.cleanup());

test("an end kept as the first instant of a day (01:00 where midnight is skipped) becomes the day before as its last day; another instant stays", async () => {
  const staff = await createStaff(db.prisma);
  const contract = () =>
    createContract(db.prisma, { workspaceId: ws.id, templateId: template.id, owner: ownerOf(staff), counterparties: [{ type: "individual", participant: { name: "Sam Signer" } }] });
  // 2026-09-06 in Santiago begins at 01:00 (−03): 04:00 UTC. 2026-10-01 begins at its midnight (−03).
  const ends = [
    { id: (await contract()).id, endAt: "2026-09-06T04:00:00.000Z", kind: "canceled" },
    { id: (await contract()).id, endAt: "2026-10-01T03:00:00.000Z", kind: "terminated" },
    { id: (await contract()).id, endAt: "2026-09-06T04:00:00.001Z", kind: "terminated" },
  ] as const;
  for (const end of ends) await db.prisma.contract.update({ where: { id: end.id }, data: { endAt: new Date(end.endAt), endOn: null, endKind: end.kind } });

  const sql = await readFile(path.join(MIGRATIONS_DIR, "20261130190000_staff_end_on_first_instant", "migration.sql"), "utf8");
  for (const statement of splitSqlScript(sql)) await db.prisma.$executeRawUnsafe(statement);

  const rows = await db.prisma.contract.findMany({ where: { id: { in: ends.map((e) => e.id) } }, orderBy: { id: "asc" }, select: { endOn: true, endAt: true } });
  expect(rows.map((r) => [r.endOn?.toISOString().slice(0, 10) ?? null, r.endAt?.toISOString() ?? null])).toEqual([
    ["2026-09-05", null],
    ["2026-09-30", null],
    [null, "2026-09-06T04:00:00.001Z"],
  ]);
});
