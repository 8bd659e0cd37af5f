// The contracts list counts with per-workspace, per-state totals plus the deltas the triggers on
// `contracts` insert (prisma/migrations/…_contract_counts, lib/services/contracts/fold-contract-counts.ts).
// These hold them equal to the contracts there are, whatever changes them and whenever a fold runs,
// and show that writers of one workspace never wait for each other on a counter.
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { MIGRATIONS_DIR } from "@/lib/db/migration-files";
import { applyMigrations } from "@/lib/db/schema-engine";
import { foldAllContractCounts } from "@/lib/services/contracts/fold-all-contract-counts";
import { foldContractCounts } from "@/lib/services/contracts/fold-contract-counts";
import { KEPT_AND_COUNTED_SQL, type TKeptAndCounted } from "@/test/helpers/contract-counts";
import { createServerDatabase, createTestDatabase, testDatabaseKind, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;
let workspaces: number[];
let template: number;
const STATES = ["draft", "pending", "overdue", "signed", "declined"] as const;

beforeAll(async () => {
  db = await createTestDatabase();
  workspaces = [];
  for (const name of ["North", "South", "East"]) {
    const [row] = await db.prisma.$queryRawUnsafe<{ id: number }[]>(`INSERT INTO workspaces (name, company_name) VALUES ($1, $1) RETURNING id`, name);
    workspaces.push(row!.id);
  }
  const [t] = await db.prisma.$queryRawUnsafe<{ id: number }[]>(`INSERT INTO templates (name) VALUES ('Counted') RETURNING id`);
  template = t!.id;
});
afterAll(() => db.cleanup());

/** What the list's count sums (totals plus deltas), and what count(*) says, per workspace and state. */
async function counted(): Promise<TKeptAndCounted> {
  const [row] = await db.prisma.$queryRawUnsafe<TKeptAndCounted[]>(KEPT_AND_COUNTED_SQL);
  return row!;
}

async function expectExact(step: string): Promise<void> {
  const { kept, counted: real } = await counted();
  expect(kept, step).toEqual(real);
}

/** A small deterministic generator, so a failing sequence can be replayed. */
function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s % n;
  };
}

test("inserts, deletes, changes of state and workspace, bulk statements and truncation: the kept counts equal the contracts after every step, folded or not", async () => {
  const pick = random(15);
  const sql = (text: string, ...values: unknown[]) => db.prisma.$executeRawUnsafe(text, ...values);
  const anyWs = () => workspaces[pick(workspaces.length)]!;
  const anyState = () => STATES[pick(STATES.length)]!;
  const steps: [string, () => Promise<unknown>][] = [
    ["insert one", () => sql(`INSERT INTO contracts (name, workspace_id, template_id, state) VALUES ('c', $1, $2, $3::contract_state)`, anyWs(), template, anyState())],
    [
      "insert many",
      () =>
        sql(
          `INSERT INTO contracts (name, workspace_id, template_id, state)
           SELECT 'bulk', ($1::int[])[1 + g % 3], $2, ($3::contract_state[])[1 + g % 5] FROM generate_series(1, 1 + $4::int) g`,
          workspaces,
          template,
          STATES,
          pick(40),
        ),
    ],
    ["delete one", () => sql(`DELETE FROM contracts WHERE id = (SELECT id FROM contracts ORDER BY random() LIMIT 1)`)],
    ["delete a workspace's state", () => sql(`DELETE FROM contracts WHERE workspace_id = $1 AND state = $2::contract_state`, anyWs(), anyState())],
    ["change states", () => sql(`UPDATE contracts SET state = $1::contract_state WHERE id % 4 = $2`, anyState(), pick(4))],
    ["move to another workspace", () => sql(`UPDATE contracts SET workspace_id = $1 WHERE id % 5 = $2`, anyWs(), pick(5))],
    ["change state and workspace at once", () => sql(`UPDATE contracts SET workspace_id = $1, state = $2::contract_state WHERE id % 7 = 0`, anyWs(), anyState())],
    ["rename (no delta)", () => sql(`UPDATE contracts SET name = name || '!' WHERE id % 3 = 0`)],
    ["fold", () => foldContractCounts({ db: db.prisma, batch: 1 + pick(5) })],
    [
      "rolled back",
      () =>
        db.prisma
          .$transaction(async (tx) => {
            await tx.$executeRawUnsafe(`INSERT INTO contracts (name, workspace_id, template_id) VALUES ('gone', $1, $2)`, anyWs(), template);
            await tx.$executeRawUnsafe(`UPDATE contracts SET state = 'signed'`);
            throw new Error("roll back");
          })
          .catch(() => undefined),
    ],
  ];
  for (let i = 0; i < 120; i++) {
    const [name, run] = steps[pick(steps.length)]!;
    await run();
    await expectExact(`step ${i}: ${name}`);
  }
  await sql(`INSERT INTO contracts (name, workspace_id, template_id) SELECT 'x', $1, $2 FROM generate_series(1, 30)`, workspaces[0], template);
  expect(await foldAllContractCounts({ db: db.prisma, batch: 7, rounds: 1000 })).toBeGreaterThan(0);
  const folded = await counted();
  expect(folded.deltas).toBe(0);
  expect(folded.kept).toEqual(folded.counted);
  expect(Object.keys(folded.counted).length).toBeGreaterThan(3);

  await sql(`TRUNCATE contracts CASCADE`);
  expect(await counted()).toEqual({ kept: {}, counted: {}, deltas: 0 });
});

test("an update that changes neither state nor workspace, and a statement that changes no row, write no delta", async () => {
  await db.prisma.$executeRawUnsafe(`INSERT INTO contracts (name, workspace_id, template_id) VALUES ('quiet', $1, $2)`, workspaces[1], template);
  await foldAllContractCounts({ db: db.prisma });
  expect((await counted()).deltas).toBe(0);
  await db.prisma.$executeRawUnsafe(`UPDATE contracts SET name = 'still quiet', state = state, workspace_id = workspace_id`);
  await db.prisma.$executeRawUnsafe(`DELETE FROM contracts WHERE false`);
  await db.prisma.$executeRawUnsafe(`INSERT INTO contracts (name, workspace_id, template_id) SELECT 'none', $1, $2 WHERE false`, workspaces[1], template);
  expect((await counted()).deltas).toBe(0);
  await expectExact("after changes that change no count");
});

// Two transactions at once need a real server (the embedded database has one session).
test.runIf(testDatabaseKind() === "postgres")(
  "(PostgreSQL) two transactions creating contracts in one workspace and state do not wait for each other",
  async () => {
    const first = new pg.Client({ connectionString: db.url });
    const second = new pg.Client({ connectionString: db.url });
    await Promise.all([first.connect(), second.connect()]);
    try {
      const insert = `INSERT INTO contracts (name, workspace_id, template_id) VALUES ('concurrent', $1, $2)`;
      await first.query("BEGIN");
      await first.query(insert, [workspaces[2], template]);
      // The first holds whatever its insert locked; the second must not queue behind it.
      await second.query("SET lock_timeout = '2s'");
      await second.query("BEGIN");
      await second.query(insert, [workspaces[2], template]);
      await second.query("COMMIT");
      await first.query("COMMIT");
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    await expectExact("after both committed");
  },
);

test.runIf(testDatabaseKind() === "postgres")(
  "(PostgreSQL) writers and several folds at once: every delta is folded once and the counts stay exact",
  async () => {
    const clients = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        return client;
      }),
    );
    let writing = true;
    try {
      const writers = clients.map(async (client, w) => {
        const pick = random(100 + w);
        for (let i = 0; i < 40; i++) {
          await client.query("BEGIN");
          // Each writer changes only the contracts it made: writers that locked one another's rows
          // in random order would deadlock among themselves, which says nothing about the counts.
          const mine = `writer ${w}`;
          await client.query(`INSERT INTO contracts (name, workspace_id, template_id, state) SELECT $5, $1, $2, $3::contract_state FROM generate_series(1, $4::int)`, [
            workspaces[pick(3)],
            template,
            STATES[pick(5)],
            1 + pick(3),
            mine,
          ]);
          await client.query(
            `UPDATE contracts SET state = $1::contract_state WHERE id IN (SELECT id FROM contracts WHERE name = $2 ORDER BY random() LIMIT 2)`,
            [STATES[pick(5)], mine],
          );
          if (pick(3) === 0) await client.query(`DELETE FROM contracts WHERE id = (SELECT id FROM contracts WHERE name = $1 ORDER BY random() LIMIT 1)`, [mine]);
          await client.query(pick(4) === 0 ? "ROLLBACK" : "COMMIT");
        }
      });
      // Two folds at once, on connections of the app's pool, while the writers write.
      const folders = [0, 1].map(async () => {
        let folded = 0;
        while (writing) folded += await foldContractCounts({ db: db.prisma, batch: 3 });
        return folded;
      });
      await Promise.all(writers).finally(() => {
        writing = false;
      });
      await Promise.all(folders);
    } finally {
      writing = false;
      await Promise.all(clients.map((c) => c.end()));
    }
    await foldAllContractCounts({ db: db.prisma, batch: 5, rounds: 1000 });
    const after = await counted();
    expect(after.deltas).toBe(0);
    expect(after.kept).toEqual(after.counted);
  },
  60_000,
);

test("a database with contracts from before the counts: the migration that adds them counts what is there", async () => {
  // The migrations up to the one before the counts, in a folder of their own.
  const before = await mkdtemp(path.join(os.tmpdir(), "contracts-migrations-"));
  const names = (await readdir(MIGRATIONS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const counts = names.find((n) => n.endsWith("_contract_counts"))!;
  for (const name of names.filter((n) => n < counts)) await cp(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
  await cp(path.join(MIGRATIONS_DIR, "migration_lock.toml"), path.join(before, "migration_lock.toml"));
  const fresh =
    testDatabaseKind() === "pglite"
      ? await startEmbeddedDatabase("memory://").then((e) => ({ url: e.url, drop: e.stop }))
      : await createServerDatabase("contracts_counts_upgrade");
  const client = new pg.Client({ connectionString: fresh.url });
  try {
    await applyMigrations(fresh.url, before);
    await client.connect();
    const ws = (await client.query<{ id: number }>(`INSERT INTO workspaces (name, company_name) VALUES ('A', 'A'), ('B', 'B') RETURNING id`)).rows.map((r) => r.id);
    const { rows: [t] } = await client.query<{ id: number }>(`INSERT INTO templates (name) VALUES ('Old') RETURNING id`);
    await client.query(
      `INSERT INTO contracts (name, workspace_id, template_id, state)
       SELECT 'old', ($1::int[])[1 + g % 2], $2, (ARRAY['draft', 'pending', 'signed']::contract_state[])[1 + g % 3] FROM generate_series(1, 25) g`,
      [ws, t!.id],
    );
    expect(await applyMigrations(fresh.url)).toContain(counts);
    const { rows } = await client.query<TKeptAndCounted>(KEPT_AND_COUNTED_SQL);
    expect(rows[0]!.kept).toEqual(rows[0]!.counted);
    expect(Object.values(rows[0]!.counted).reduce((a, b) => a + b, 0)).toBe(25);
    expect(rows[0]!.deltas).toBe(0);
  } finally {
    await client.end().catch(() => undefined);
    await fresh.drop();
    await rm(before, { recursive: true, force: true });
  }
}, 60_000);
