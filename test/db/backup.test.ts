// npm run db:backup / db:restore / db:move, end to end through the commands (README.md
// "Backup, restore and moving to PostgreSQL"): demo data made by the product's operations (signed, sealed
// contracts; their PDFs in file_chunks, the seal's key in app_settings) on an embedded database in
// a temporary folder; backed up from it and from PostgreSQL, restored into a fresh one of each and
// moved; every table equal row by row, every audit chain intact, a sealed PDF from before still
// "intact" with the same seal certificate, and one whose contract was deleted before the backup too. Then the refusals, each one sentence, nothing changed.
// Needs the PostgreSQL server of test/helpers/db.ts (skipped without it). Seeding and sealing take
// tens of seconds on a loaded machine: the limits are minutes, nothing is timed.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PrismaClient } from "@/lib/db";
import { BackupRefusal, ident, readOwnedSequences, readTables, RestoreFailedAfterSchema } from "@/lib/db/backup/format";
import { gunzipBackup } from "@/lib/db/backup/read-file";
import { restoreBackup, verifyBackup } from "@/lib/db/backup/restore-backup";
import { createPrismaClient, poolOf } from "@/lib/db/pool";
import { DATA_FOLDER_LOCK, RESTORE_MARKER, startEmbeddedDatabase, type EmbeddedDatabase } from "@/lib/db/embedded";
import { applyMigrations } from "@/lib/db/schema-engine";
import { seedDemoData } from "@/lib/seed/demo";
import { checkContractChain } from "@/lib/services/audit/check-contract-chain";
import { deleteContract } from "@/lib/services/contracts/delete-contract";
import { fileStore } from "@/lib/services/files/file-store";
import { sealDueContracts } from "@/lib/services/seal/seal-contracts";
import { loadSealIdentity } from "@/lib/services/seal/seal-identity";
import { verifySealedPdf } from "@/lib/services/seal/verify-sealed-pdf";
import { createServerDatabase, testServerUrl } from "@/test/helpers/db";
import { actorOf } from "@/test/services/read-fixtures";

const LIMIT_MS = 900_000;
const root = mkdtempSync(path.join(tmpdir(), "contracts-backup-test-"));
const srcDir = path.join(root, "src");
const drops: (() => Promise<void>)[] = [];

type TScript = "db-backup" | "db-restore" | "db-move" | "db-migrate" | "db-seed";
type TCommandEnv = { PGLITE_DATA_DIR?: string; DATABASE_URL?: string };
const TSX = path.join(process.cwd(), "node_modules", ".bin", "tsx");

/** The command's environment: this process's, with only `env`'s database. */
function commandEnv(env: TCommandEnv): NodeJS.ProcessEnv {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent", NODE_OPTIONS: "" };
  delete childEnv.DATABASE_URL;
  delete childEnv.PGLITE_DATA_DIR;
  return Object.assign(childEnv, env);
}

/** Runs one of the commands as an operator would; answers its exit code and what it printed. */
function run(script: TScript, arg: string, env: TCommandEnv, stdin?: Buffer) {
  const once = () => {
    const r = spawnSync(TSX, [`scripts/${script}.ts`, arg], { env: commandEnv(env), encoding: "utf8", timeout: LIMIT_MS, ...(stdin ? { input: stdin } : {}) });
    return { status: r.status, out: `${r.stdout}${r.stderr}`.trim() };
  };
  const first = once();
  // Node's V8 now and then aborts a process that churns WebAssembly code (the embedded database)
  // on its own check of JIT pages (nodejs/node#64500, "Check failed: jit_page"): the runtime's
  // crash, not the command's. Run once more then, into a fresh target (a restore's is its directory).
  if (first.status === 0 || !/Check failed: jit_page/.test(first.out)) return first;
  if (script === "db-restore" && env.PGLITE_DATA_DIR) rmSync(env.PGLITE_DATA_DIR, { recursive: true, force: true });
  return once();
}

/** The same, started in the background: its process, and its exit code and what it printed once it ends (killed after the limit). */
function start(script: TScript, arg: string, env: TCommandEnv) {
  const child = spawn(TSX, [`scripts/${script}.ts`, arg], { env: commandEnv(env) });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const limit = setTimeout(() => child.kill("SIGKILL"), LIMIT_MS);
  const done = new Promise<{ status: number | null; out: string }>((resolve) =>
    child.on("exit", (status) => {
      clearTimeout(limit);
      resolve({ status, out: out.trim() });
    }),
  );
  return { child, done };
}

/** Until a file whose name starts with `prefix` is in `root` (a command has begun writing), at most a minute. */
async function begun(prefix: string) {
  const until = Date.now() + 60_000;
  while (!readdirSync(root).some((name) => name.startsWith(prefix)) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}

async function withClient<T>(url: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET extra_float_digits = 3");
    return await f(c);
  } finally {
    await c.end();
  }
}

/** Every table's rows in key order, as text (bytea as hex), and every sequence's value: what "equal" means. */
async function contents(url: string): Promise<Record<string, string[]>> {
  return withClient(url, async (c) => {
    const out: Record<string, string[]> = {};
    for (const t of await readTables(c)) {
      const order = (t.primaryKey.length ? t.primaryKey : t.columns.map((x) => x.name)).map(ident).join(", ");
      const { rows } = await c.query<{ r: string }>(`SELECT (${ident(t.name)}.*)::text AS r FROM ${ident(t.name)} ORDER BY ${order}`);
      out[t.name] = rows.map((r) => r.r);
    }
    const seqs = await c.query<{ name: string }>(`SELECT c.relname::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'S' AND n.nspname = 'public' ORDER BY 1`);
    for (const { name } of seqs.rows) {
      const { rows } = await c.query<{ v: string }>(`SELECT last_value::text AS v FROM ${ident(name)}`);
      out[`sequence ${name}`] = [rows[0]!.v];
    }
    return out;
  });
}

/** A backup's lines (its trailer and the empty line after it last) altered, with their checksum made again (anyone can). */
function resealed(altered: string[]): Buffer {
  const body = `${altered.slice(0, -2).join("\n")}\n`;
  return gzipSync(`${body}${JSON.stringify({ end: true, sha256: createHash("sha256").update(body).digest("hex") })}\n`);
}

/** A fresh, empty database on the server (no schema at all). */
async function freshServerDatabase(): Promise<string> {
  const { url, drop } = await createServerDatabase("contracts_backup");
  drops.push(drop);
  return url;
}

/** The PostgreSQL half needs the test server (`npm test` requires it in CI). */
const serverUp = await withClient(testServerUrl(), async () => true).catch(() => false);

let sourceUrlContents: Record<string, string[]>;
let sealed: { contractId: number; storageKey: string; pdf: Buffer; certificateSha256: string };
/** A sealed copy whose contract an admin deleted: only `deleted_contract_seals` tells it intact. */
let orphan: { contractId: number; pdf: Buffer };
const sealCache = globalThis as { __contractsSealIdentity?: unknown };

/** Opens the embedded folder, runs `f` with a client on it, closes it (the commands need the folder free). */
async function onEmbedded<T>(dir: string, f: (prisma: PrismaClient, url: string) => Promise<T>): Promise<T> {
  const embedded = await startEmbeddedDatabase(dir);
  const prisma = createPrismaClient(embedded.url, 4, { oneSession: true });
  try {
    return await f(prisma, embedded.url);
  } finally {
    await prisma.$disconnect();
    const pool = poolOf(prisma) as pg.Pool & { ending?: boolean };
    if (!pool.ending) await pool.end();
    await embedded.stop();
  }
}

async function onServer<T>(url: string, f: (prisma: PrismaClient, url: string) => Promise<T>): Promise<T> {
  const prisma = createPrismaClient(url, 4);
  try {
    return await f(prisma, url);
  } finally {
    await prisma.$disconnect();
    const pool = poolOf(prisma) as pg.Pool & { ending?: boolean };
    if (!pool.ending) await pool.end();
  }
}

/** Equal to the source in every row; every chain intact; the sealed PDF read back from its chunks, "intact", same certificate. */
async function expectSameAsSource(prisma: PrismaClient, url: string) {
  expect(await contents(url)).toEqual(sourceUrlContents);
  const contracts = await prisma.contract.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  expect(contracts.length).toBeGreaterThan(0);
  for (const { id } of contracts) {
    const chain = await checkContractChain(prisma, id);
    expect({ id, intact: chain.intact, brokenAt: chain.brokenAt }).toEqual({ id, intact: true, brokenAt: null });
  }
  const pdf = await fileStore().read(prisma, sealed.storageKey);
  expect(Buffer.compare(Buffer.from(pdf), sealed.pdf)).toBe(0);
  sealCache.__contractsSealIdentity = undefined; // the seal as this database holds it, not as the process cached it
  expect((await loadSealIdentity(prisma)).fingerprint).toBe(sealed.certificateSha256);
  const verdict = await verifySealedPdf({ db: prisma, pdf: sealed.pdf });
  expect(verdict.verdict).toBe("intact");
  expect(verdict.contract?.id).toBe(sealed.contractId);
  expect(await verifySealedPdf({ db: prisma, pdf: orphan.pdf })).toMatchObject({ verdict: "intact", contract: null, message: expect.stringContaining(`its contract (${orphan.contractId}) has since been deleted`) });
}

beforeAll(async () => {
  await onEmbedded(srcDir, async (prisma, url) => {
    await applyMigrations(url);
    await seedDemoData(prisma, { apiToken: "backup-token-0123456789", adminPassword: "correct horse", linkOrigin: "http://demo.example" });
    while ((await sealDueContracts({ db: prisma })).claimed > 0);
    const seal = await prisma.contractSeal.findFirstOrThrow({ where: { status: "done" }, orderBy: { contractId: "asc" } });
    const file = await prisma.contractFile.findUniqueOrThrow({ where: { id: seal.fileId! } });
    sealed = { contractId: seal.contractId, storageKey: file.storageKey!, pdf: Buffer.from(await fileStore().read(prisma, file.storageKey!)), certificateSha256: seal.certificateSha256! };
    expect((await verifySealedPdf({ db: prisma, pdf: sealed.pdf })).verdict).toBe("intact");
    const other = await prisma.contractSeal.findFirstOrThrow({ where: { status: "done", contractId: { not: seal.contractId } }, orderBy: { contractId: "desc" } });
    const otherFile = await prisma.contractFile.findUniqueOrThrow({ where: { id: other.fileId! } });
    orphan = { contractId: other.contractId, pdf: Buffer.from(await fileStore().read(prisma, otherFile.storageKey!)) };
    const admin = await actorOf(prisma, await prisma.user.findFirstOrThrow({ where: { isAdmin: true }, orderBy: { id: "asc" } }));
    await deleteContract({ db: prisma, actor: admin, contractId: orphan.contractId });
    expect((await verifySealedPdf({ db: prisma, pdf: orphan.pdf })).verdict).toBe("intact");
    sourceUrlContents = await contents(url);
  });
  // What the demo makes: every kind of row the restore must carry (bytes, keys, derived counts).
  for (const table of ["file_chunks", "app_settings", "audit_events", "contract_seals", "deleted_contract_seals", "contract_count_deltas", "participants"]) {
    expect(sourceUrlContents[table]!.length, table).toBeGreaterThan(0);
  }
}, LIMIT_MS);

afterAll(async () => {
  for (const drop of drops) await drop().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});

describe("backup, restore and move", () => {
  const fromEmbedded = path.join(root, "embedded.backup.gz");

  test("db:backup of the embedded database restores into a fresh embedded database, equal in every row", async () => {
    const backup = run("db-backup", fromEmbedded, { PGLITE_DATA_DIR: srcDir });
    expect(backup, backup.out).toMatchObject({ status: 0 });
    const dst = path.join(root, "restored-embedded");
    const restore = run("db-restore", fromEmbedded, { PGLITE_DATA_DIR: dst });
    expect(restore, restore.out).toMatchObject({ status: 0 });
    await onEmbedded(dst, expectSameAsSource);
  }, LIMIT_MS);

  test("db:backup removes only files it made: a working file of its name already there is refused and left as it was", () => {
    const target = path.join(root, "taken-partial.gz");
    // The command writes FILE.partial-<its pid> first: a shell makes that file, then becomes the command (exec keeps its pid).
    const script = `printf 'not this backup\\n' > "$1.partial-$$" && exec node --import tsx scripts/db-backup.ts "$1"`;
    const r = spawnSync("sh", ["-c", script, "sh", target], { env: commandEnv({ PGLITE_DATA_DIR: srcDir }), encoding: "utf8", timeout: LIMIT_MS });
    const partial = `${target}.partial-${r.pid}`;
    expect(existsSync(partial) && readFileSync(partial, "utf8"), `${r.stdout}${r.stderr}`).toBe("not this backup\n");
    // The claim on FILE was this run's: taken away again.
    expect(existsSync(target)).toBe(false);
    expect({ status: r.status, out: `${r.stdout}${r.stderr}`.trim() }).toEqual({
      status: 1,
      out: `${partial} already exists (an interrupted backup's, or not a backup's): remove it, or choose a new file name.`,
    });
    rmSync(partial); // the move's test below counts the partial files left in this folder
  }, LIMIT_MS);

  test("a restore that fails while setting the sequences leaves the target as it was, its sequences too", async () => {
    const lines = gunzipSync(readFileSync(fromEmbedded)).toString("utf8").split("\n");
    const header = JSON.parse(lines[0]!) as { sequences: { name: string; value: string; called: boolean }[] };
    const sourceValue = new Map(header.sequences.map((s) => [s.name, BigInt(s.value)]));
    // Migrated and empty (a restore accepts it), so no migration of the backup's is applied first.
    const targets: { name: string; env: TCommandEnv; on: <T>(f: (url: string) => Promise<T>) => Promise<T> }[] = [];
    const dir = path.join(root, "migrated-embedded");
    targets.push({ name: "embedded", env: { PGLITE_DATA_DIR: dir }, on: (f) => onEmbedded(dir, (_prisma, url) => f(url)) });
    if (serverUp) {
      const url = await freshServerDatabase();
      targets.push({ name: "PostgreSQL", env: { DATABASE_URL: url }, on: (f) => f(url) });
    }
    for (const target of targets) {
      const { before, failing } = await target.on(async (url) => {
        await applyMigrations(url);
        // The last sequence the restore sets that is an integer one: a value past 2^31 - 1 is one its setval refuses.
        const failing = await withClient(url, async (c) => {
          const integers = new Set((await c.query<{ name: string }>(`SELECT sequencename::text AS name FROM pg_sequences WHERE schemaname = 'public' AND data_type = 'integer'::regtype`)).rows.map((r) => r.name));
          const order = (await readOwnedSequences(c)).map((s) => s.name);
          const last = order.findLast((name) => integers.has(name))!;
          // Sequences set before it, which a failure must not leave set.
          expect(order.slice(0, order.indexOf(last)).some((name) => (sourceValue.get(name) ?? 0n) > 1n), target.name).toBe(true);
          return last;
        });
        return { before: await contents(url), failing };
      });
      const sequences = header.sequences.map((s) => (s.name === failing ? { ...s, value: "3000000000", called: true } : s));
      const crafted = path.join(root, `sequence-out-of-range-${target.name}.gz`);
      writeFileSync(crafted, resealed([JSON.stringify({ ...header, sequences }), ...lines.slice(1)]));
      const r = run("db-restore", crafted, target.env);
      expect({ target: target.name, ...r }).toEqual({
        target: target.name,
        status: 1,
        out: `The restore failed, nothing was changed: setval: value 3000000000 is out of bounds for sequence "${failing}" (1..2147483647)`,
      });
      expect(await target.on(contents), target.name).toEqual(before);
    }
  }, LIMIT_MS);

  test.runIf(serverUp || process.env.TEST_DB === "postgres")("db:move copies the embedded database into an empty PostgreSQL database; a backup of that restores into another, and back into an embedded one", async () => {
    const moved = await freshServerDatabase();
    // A URL PostgreSQL reads and WHATWG's URL does not (no host before the path) is still one to move into.
    const u = new URL(moved);
    const move = run("db-move", `postgresql://${u.username}@${u.pathname}?host=${u.hostname}&port=${u.port}`, { PGLITE_DATA_DIR: srcDir });
    expect(move, move.out).toMatchObject({ status: 0 });
    expect(move.out).toMatch(/^Moved \d+ rows of \d+ tables from .+ into the target database: set DATABASE_URL to it and start the app\.$/);
    await onServer(moved, expectSameAsSource);

    const fromServer = path.join(root, "server.backup.gz");
    const backup = run("db-backup", fromServer, { DATABASE_URL: moved });
    expect(backup, backup.out).toMatchObject({ status: 0 });

    // Two backups into one file name: the first claims the name as it begins, so the second (run
    // while the first is held on a lock here) is refused and the first's whole file is what remains.
    // A third, stopped by a signal while held, leaves neither its claim nor its partial file.
    const shared = path.join(root, "shared.gz");
    const stopped = path.join(root, "stopped.gz");
    const [first, second, third] = await withClient(moved, async (c) => {
      await c.query("BEGIN");
      await c.query("LOCK TABLE file_chunks IN ACCESS EXCLUSIVE MODE");
      const one = start("db-backup", shared, { DATABASE_URL: moved });
      const three = start("db-backup", stopped, { DATABASE_URL: moved });
      await begun("shared.gz.partial-");
      const two = start("db-backup", shared, { DATABASE_URL: moved });
      // Refused at once; a second that went on would wait for the lock too (bounded here).
      await Promise.race([two.done, new Promise((r) => setTimeout(r, 30_000))]);
      await begun("stopped.gz.partial-");
      three.child.kill("SIGTERM");
      await three.done;
      await c.query("COMMIT");
      return Promise.all([one.done, two.done, three.done]);
    });
    expect(second).toEqual({ status: 1, out: `${shared} already exists: choose a new file name.` });
    expect(first.status, first.out).toBe(0);
    expect((await verifyBackup(gunzipBackup(createReadStream(shared)))).rows).toBeGreaterThan(0);
    expect(third.out).toBe(`The backup was stopped (SIGTERM): ${stopped} was not written.`);
    expect(readdirSync(root).filter((name) => name.startsWith("stopped.gz"))).toEqual([]);
    expect(readdirSync(root).filter((name) => name.includes(".partial-"))).toEqual([]);
    const restored = await freshServerDatabase();
    const restore = run("db-restore", fromServer, { DATABASE_URL: restored });
    expect(restore, restore.out).toMatchObject({ status: 0 });
    await onServer(restored, expectSameAsSource);

    const dst = path.join(root, "from-server-embedded");
    const back = run("db-restore", fromServer, { PGLITE_DATA_DIR: dst });
    expect(back, back.out).toMatchObject({ status: 0 });
    await onEmbedded(dst, expectSameAsSource);

    // A target that is not empty: refused in one sentence, nothing changed.
    const again = run("db-restore", fromEmbedded, { DATABASE_URL: restored });
    expect(again.status).not.toBe(0);
    expect(again.out).toMatch(/^The target database is not empty \(table \w+ has rows\): restore only into an empty database\.$/);
    const moveAgain = run("db-move", restored, { PGLITE_DATA_DIR: srcDir });
    expect(moveAgain.status).not.toBe(0);
    expect(moveAgain.out).toMatch(/^The target database is not empty \(table \w+ has rows\): restore only into an empty database\.$/);
    await onServer(restored, expectSameAsSource);

    // A target the migrations made, with a rule of its own that would drop (or copy) rows: refused, nothing restored.
    const ruled = await freshServerDatabase();
    await applyMigrations(ruled);
    await onServer(ruled, (prisma) => prisma.$executeRawUnsafe(`CREATE RULE drop_audit AS ON INSERT TO audit_events DO INSTEAD NOTHING`));
    const intoRuled = run("db-restore", fromServer, { DATABASE_URL: ruled });
    expect(intoRuled.status).not.toBe(0);
    expect(intoRuled.out).toBe("The target database is not as the migrations make it (table audit_events has a rule): restore only into an empty database.");
    expect(await onServer(ruled, (prisma) => prisma.user.count())).toBe(0);
  }, LIMIT_MS);

  test("refused in one sentence, nothing changed: not a backup, damaged, cut, tampered, from a newer schema; a folder a running app holds", async () => {
    const good = readFileSync(fromEmbedded);
    const lines = gunzipSync(good).toString("utf8").split("\n");
    const header = JSON.parse(lines[0]!) as { migrations: { name: string; checksum: string }[] };
    const file = (name: string, bytes: Buffer) => {
      const p = path.join(root, name);
      writeFileSync(p, bytes);
      return p;
    };
    const rowAt = lines.findIndex((l) => l.startsWith("[") && l.includes("admin@example.com"));
    const tampered = [...lines];
    tampered[rowAt] = tampered[rowAt]!.replace("admin@example.com", "admim@example.com");
    const newer = [JSON.stringify({ ...header, migrations: [...header.migrations, { name: "29991231000000_from_the_future", checksum: "0".repeat(64) }] }), ...lines.slice(1)];
    // Files altered with their checksum made again: each is checked against what it claims.
    const withMigrations = (migrations: typeof header.migrations) => resealed([JSON.stringify({ ...header, migrations }), ...lines.slice(1)]);
    const chunksAt = lines.findIndex((l) => l.startsWith('{"table":"file_chunks"'));
    const chunkStart = JSON.parse(lines[chunksAt]!) as { columns: string[]; base64: string[] };
    const chunkRow = JSON.parse(lines[chunksAt + 1]!) as string[];
    chunkRow[chunkStart.columns.indexOf(chunkStart.base64[0]!)] = "not base64!";
    const badBytes = [...lines];
    badBytes[chunksAt + 1] = JSON.stringify(chunkRow);
    // A history row whose checksum is not its migration's (the header keeps the right one).
    const historyAt = lines.findIndex((l) => l.startsWith('{"table":"_prisma_migrations"'));
    const historyColumns = (JSON.parse(lines[historyAt]!) as { columns: string[] }).columns;
    const historyRow = JSON.parse(lines[historyAt + 1]!) as string[];
    historyRow[historyColumns.indexOf("checksum")] = "0".repeat(64);
    const otherHistory = [...lines];
    otherHistory[historyAt + 1] = JSON.stringify(historyRow);
    // The history without its newest migration's row, the header's count of its rows made to agree.
    const nameColumn = historyColumns.indexOf("migration_name");
    const newest = header.migrations.at(-1)!.name;
    const newestAt = lines.findIndex((l, i) => i > historyAt && l.startsWith("[") && (JSON.parse(l) as string[])[nameColumn] === newest);
    const shortHeader = JSON.parse(lines[0]!) as { tables: { name: string; rows: number }[] };
    for (const t of shortHeader.tables) if (t.name === "_prisma_migrations") t.rows -= 1;
    const shortHistory = [JSON.stringify(shortHeader), ...lines.slice(1).filter((_, i) => i + 1 !== newestAt)];
    // JSON nested deeper than a backup's (a row, the header): refused before JSON.parse builds a million levels.
    const deepRow = [...lines];
    deepRow[rowAt] = `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`;
    const deepHeader = [JSON.stringify({ ...header, tables: [[[header.migrations]]] }), ...lines.slice(1)];
    const flipped = Buffer.from(good);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    const cases: [string, string, RegExp][] = [
      ["not gzip", file("notes.txt", Buffer.from("hello\n")), /^This file is not a backup of this app \(it is not gzip'd\)\.$/],
      ["gzip, not a backup", file("other.gz", gzipSync("{\"format\":\"something-else\"}\n")), /^This file is not a backup of this app \(its first line is not its header\)\.$/],
      ["a line past the bound", file("long.gz", gzipSync(Buffer.alloc(5 * 1024 * 1024, 0x41))), /^This file is not a backup of this app \(a line is longer than \d+ bytes\)\.$/],
      // Where the flipped byte lands decides which check meets it first: the compressed data, a line (too long, a row or
      // a table's start malformed) or the checksum; any of them refuses the file.
      ["damaged compressed data", file("flipped.gz", flipped), /^(This file is not a backup of this app(, or it is damaged)? \([^)]+\)|This backup is corrupt: its checksum does not match its contents)\.$/],
      ["cut short", file("cut.gz", good.subarray(0, Math.floor(good.length * 0.6))), /^This backup is truncated: its compressed data ends early\.$/],
      ["cut at a line, recompressed", file("cut-lines.gz", gzipSync(lines.slice(0, rowAt).join("\n") + "\n")), /^This backup is truncated: it ends before its last line\.$/],
      ["a row changed", file("tampered.gz", gzipSync(tampered.join("\n"))), /^This backup is corrupt: its checksum does not match its contents\.$/],
      ["a newer schema", file("newer.gz", gzipSync(newer.join("\n"))), /^This backup is from a newer schema \(migration 29991231000000_from_the_future is unknown to this version of the app\): restore it with the version that made it\.$/],
      ["a migration left out", file("gap.gz", withMigrations(header.migrations.filter((_, i) => i !== 1))), /^This backup's migrations are not this app's first ones in order: it was not taken by this app, or it was altered\.$/],
      ["a history one migration short of its header", file("short.gz", resealed(shortHistory)), /^This backup's migration history does not match the migrations its header names\.$/],
      ["a history row's checksum changed", file("history.gz", resealed(otherHistory)), /^This backup's migration history does not match the migrations its header names\.$/],
      ["a row nested a million deep", file("deep-row.gz", resealed(deepRow)), /^This file is not a backup of this app \(a line nests deeper than a backup's lines do\)\.$/],
      ["a header nested deeper than a header", file("deep-header.gz", gzipSync(deepHeader.join("\n"))), /^This file is not a backup of this app \(a line nests deeper than a backup's lines do\)\.$/],
      ["bytes that are not base64", file("bad-bytes.gz", resealed(badBytes)), /^This file is not a backup of this app \(a row of file_chunks is malformed\)\.$/],
    ];
    for (const [what, p, message] of cases) {
      const dst = path.join(root, `refused-${path.basename(p)}`);
      const r = run("db-restore", p, { PGLITE_DATA_DIR: dst });
      expect({ what, status: r.status === 0 ? 0 : "non-zero" }).toEqual({ what, status: "non-zero" });
      expect(r.out, what).toMatch(message);
      expect(existsSync(dst), `${what}: the folder was left behind`).toBe(false);
    }
    // A folder with files of someone else's and no database: refused, its files left alone.
    const occupied = path.join(root, "occupied");
    mkdirSync(occupied);
    writeFileSync(path.join(occupied, "notes.txt"), "mine\n");
    const intoOccupied = run("db-restore", fromEmbedded, { PGLITE_DATA_DIR: occupied });
    expect(intoOccupied.status).not.toBe(0);
    expect(intoOccupied.out).toBe(`${occupied} holds files but no embedded database: restore into a new or empty folder.`);
    expect(readdirSync(occupied)).toEqual(["notes.txt"]);

    // Without db:restore's first reading (standard input, db:move): the backup's migrations are
    // applied first, the rows' transaction rolls back at the damage; the database stays empty and
    // takes the good backup afterwards.
    if (serverUp) {
      // A target where a migration of the backup's cannot apply: the command names the migration and
      // why, and says the target may hold part of the schema (not "nothing was changed").
      const inTheWay = await freshServerDatabase();
      await withClient(inTheWay, (client) => client.query(`CREATE FUNCTION "contract_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`));
      const blocked = run("db-restore", fromEmbedded, { DATABASE_URL: inTheWay });
      expect(blocked.status).not.toBe(0);
      expect(blocked.out).toMatch(
        /^The restore failed while applying the backup's migrations \(migration \d+_contract_counts: ERROR: function "contract_counts_inserted" already exists with same argument types\); the target may hold part of the schema: restore into a new, empty database\.$/,
      );
      const empty = await freshServerDatabase();
      // The command says what it left: the schema it applied first, and no row.
      const fromStdin = run("db-restore", "-", { DATABASE_URL: empty }, readFileSync(cases[6]![1]));
      expect(fromStdin.status).not.toBe(0);
      expect(fromStdin.out).toBe("This backup is corrupt: its checksum does not match its contents; no rows were restored, and the target keeps the backup's empty schema, which a restore accepts.");
      for (const [what, p] of cases.slice(3)) {
        await withClient(empty, async (client) => {
          const error = await restoreBackup({ client, url: empty, input: gunzipBackup(createReadStream(p)) }).catch((e: unknown) => e);
          expect(error instanceof RestoreFailedAfterSchema ? error.cause : error, what).toBeInstanceOf(BackupRefusal);
        });
      }
      const rows = Object.entries(await contents(empty)).filter(([name, r]) => !name.startsWith("sequence ") && name !== "_prisma_migrations" && r.length > 0);
      expect(rows).toEqual([]);
      await withClient(empty, (client) => restoreBackup({ client, url: empty, input: gunzipBackup(createReadStream(fromEmbedded)) }));
      expect(await contents(empty)).toEqual(sourceUrlContents);
      await expect(verifyBackup(gunzipBackup(createReadStream(cases[6]![1])))).rejects.toThrow(/checksum/);
    }

    // A folder a running app holds: the app's own opening takes it; the backup is refused.
    const held: EmbeddedDatabase = await startEmbeddedDatabase(srcDir);
    try {
      const r = run("db-backup", path.join(root, "while-running.gz"), { PGLITE_DATA_DIR: srcDir });
      expect(r.status).not.toBe(0);
      expect(r.out).toBe(`The embedded database at ${srcDir} is in use by process ${process.pid}: stop the app or command holding it first.`);
      expect(existsSync(path.join(root, "while-running.gz"))).toBe(false);
    } finally {
      await held.stop();
    }
    await onEmbedded(srcDir, async (_prisma, url) => expect(await contents(url)).toEqual(sourceUrlContents));
  }, LIMIT_MS);

  test("a restore into a new folder killed midway: nothing opens the folder, and the same command starts over in it", async () => {
    // What `kill -9` leaves while the database is being made: the restore's mark, its lock (of a
    // process that is gone) and part of the files.
    const left = path.join(root, "killed-restore");
    mkdirSync(path.join(left, "base"), { recursive: true });
    writeFileSync(path.join(left, RESTORE_MARKER), "");
    writeFileSync(path.join(left, DATA_FOLDER_LOCK), JSON.stringify({ pid: spawnSync("true").pid, started: null }));
    writeFileSync(path.join(left, "base", "partial"), "x");
    const unfinished = `The embedded database at ${left} is a restore that did not finish: run the same npm run db:restore again, or restore into a new folder.`;
    await expect(startEmbeddedDatabase(left)).rejects.toThrow(unfinished);
    // The other commands that open it say so in the same one sentence.
    for (const command of ["db-migrate", "db-seed"] as const) expect(run(command, "", { PGLITE_DATA_DIR: left })).toEqual({ status: 1, out: unfinished });
    const again = run("db-restore", fromEmbedded, { PGLITE_DATA_DIR: left });
    expect(again.status, again.out).toBe(0);
    expect(readdirSync(left)).not.toContain(RESTORE_MARKER);
    expect(existsSync(path.join(left, "base", "partial"))).toBe(false);
    const reopened = await startEmbeddedDatabase(left);
    await reopened.stop();
  }, LIMIT_MS);
});
