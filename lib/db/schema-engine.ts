import { readFile } from "node:fs/promises";
import path from "node:path";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { MIGRATIONS_DIR, readShippedMigrations } from "./migration-files.ts";
import { splitSqlScript } from "./sql-script.ts";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm";

/**
 * Prisma's schema engine compiled to WebAssembly, so migrations work without the native binary
 * the Prisma CLI would download. Its methods mirror the native engine's JSON-RPC methods.
 */

export const SCHEMA_PATH = path.join(process.cwd(), "prisma", "schema.prisma");

let wasmReady: Promise<typeof import("@prisma/schema-engine-wasm/schema_engine_bg")> | undefined;

/** The package's ESM entry imports a `.wasm` file, which Node cannot load: instantiate it here. */
function loadWasm() {
  wasmReady ??= (async () => {
    // The engine reports a Rust panic's message here before it throws.
    const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(m: string): void } };
    g.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (m) => console.error(`schema engine panic: ${m}`) };
    const bg = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    // Resolved from the project root at run time: inside Next's server bundle `require.resolve`
    // answers a module id, not a path.
    const wasmPath = path.join(process.cwd(), "node_modules", "@prisma", "schema-engine-wasm", "schema_engine_bg.wasm");
    const bytes = await readFile(/*turbopackIgnore: true*/ wasmPath);
    const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": bg });
    const exports = instance.exports as Record<string, unknown> & { __wbindgen_start: () => void };
    (bg as unknown as { __wbg_set_wasm: (e: unknown) => void }).__wbg_set_wasm(exports);
    exports.__wbindgen_start();
    return bg;
  })();
  return wasmReady;
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/**
 * The engine reads catalog columns of Postgres' one-byte `"char"` type (constraint kinds, actions),
 * which @prisma/adapter-pg rejects as unsupported. Their values arrive as one-character strings, so
 * presenting them as `text` is exact.
 */
class CatalogFriendlyClient extends pg.Client {
  override query(...args: unknown[]): never {
    const relabel = (r: pg.QueryResult | undefined) => {
      for (const field of r?.fields ?? []) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
      return r;
    };
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      // pg.Pool#query calls its client in callback style.
      args[last] = (err: Error | null, r: pg.QueryResult) => callback(err, relabel(r));
      return (super.query as (...a: unknown[]) => never)(...args);
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result instanceof Promise) return result.then(relabel) as never;
    return result as never;
  }
}

interface TScriptRunner {
  executeScript(script: string): Promise<void>;
  underlyingDriver(): { query(sql: string): Promise<unknown> };
  onError(error: unknown): never;
}

/**
 * @prisma/adapter-pg runs a migration's script by splitting it at every `;`, which cuts a
 * PL/pgSQL function's body in pieces (prisma/migrations/…_contract_counts has trigger functions).
 * The adapters this factory makes, for the database and for the shadow database, split it by
 * statement instead (`splitSqlScript`), and run each as the adapter did, one after the other.
 */
function wholeStatements(factory: PrismaPg): PrismaPg {
  const patch = (adapter: TScriptRunner) => {
    adapter.executeScript = async (script: string) => {
      for (const statement of splitSqlScript(script)) {
        try {
          await adapter.underlyingDriver().query(statement);
        } catch (error) {
          adapter.onError(error);
        }
      }
    };
    return adapter;
  };
  const f = factory as unknown as Record<"connect" | "connectToShadowDb", (...args: unknown[]) => Promise<TScriptRunner>>;
  for (const method of ["connect", "connectToShadowDb"] as const) {
    const original = f[method].bind(factory);
    f[method] = async (...args) => patch(await original(...args));
  }
  return factory;
}

/** The adapter creates (and drops) its own shadow database when a command needs one. */
export async function openSchemaEngine(connectionString: string): Promise<SchemaEngine> {
  const bg = await loadWasm();
  const schema = await readFile(/*turbopackIgnore: true*/ SCHEMA_PATH, "utf8");
  // A config, not a Pool: the adapter derives its shadow database's pool from this config.
  const adapter = bindMigrationAwareSqlAdapterFactory(
    wholeStatements(new PrismaPg({ connectionString, Client: CatalogFriendlyClient, max: 4 })),
  );
  const logs: string[] = [];
  return (bg as unknown as { SchemaEngine: typeof SchemaEngine }).SchemaEngine.new(
    { datamodels: [[SCHEMA_PATH, schema]] },
    (line: string) => logs.push(line),
    adapter,
  );
}

/** The migrations folder in the shape the engine takes (Prisma Migrate's own layout). */
export async function readMigrationsList(dir = MIGRATIONS_DIR): Promise<MigrationList> {
  const migrationDirectories = (await readShippedMigrations(dir)).map(({ name, sql }) => ({
    path: name,
    migrationFile: { path: "migration.sql", content: { tag: "ok" as const, value: sql } },
  }));
  const lockPath = path.join(dir, "migration_lock.toml");
  const lockContent = await readFile(/*turbopackIgnore: true*/ lockPath, "utf8").catch(() => null);
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: lockContent },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

const noFilters = { externalTables: [], externalEnums: [] };

/** Applies every migration not yet recorded in `_prisma_migrations`; a no-op when up to date. */
export async function applyMigrations(connectionString: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  const engine = await openSchemaEngine(connectionString);
  try {
    const out = await engine.applyMigrations({ migrationsList: await readMigrationsList(dir), filters: noFilters });
    return out.appliedMigrationNames;
  } finally {
    engine.free();
  }
}

/**
 * The SQL that takes a database built from the existing migrations to `prisma/schema.prisma`
 * (the migrations are replayed in a shadow database the adapter creates).
 */
export async function diffMigrationsToSchema(connectionString: string): Promise<string> {
  const engine = await openSchemaEngine(connectionString);
  try {
    const schema = await readFile(/*turbopackIgnore: true*/ SCHEMA_PATH, "utf8");
    const list = await readMigrationsList();
    const from = list.migrationDirectories.length > 0 ? { tag: "migrations" as const, ...list } : { tag: "empty" as const };
    const result = await engine.diff({
      from,
      to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: schema }] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    return result.stdout ?? "";
  } finally {
    engine.free();
  }
}
