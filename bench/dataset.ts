// The benchmark's data sets: the demo seed (users, workspaces, templates, the API token) plus
// contracts made in bulk with `INSERT … SELECT generate_series` (one statement per table, not one
// request or insert per row), then VACUUM ANALYZE. A marker table records what was loaded, so a
// later run reuses the data set (and removes what the previous run's POST scenario added).
import { rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import pg from "pg";
import { createPrismaClient } from "@/lib/db/pool";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { applyMigrations } from "@/lib/db/schema-engine";
import { DEMO_CONTRACT_COUNT, seedDemoData } from "@/lib/seed/demo";
import { RECOUNT_CONTRACTS_SQL } from "@/lib/services/contracts/fold-contract-counts";
import { BENCH_ADMIN_PASSWORD, BENCH_API_TOKEN, log } from "./config";

/** Bump when the generator changes: older data sets are then rebuilt. */
export const DATASET_VERSION = 3;
const MARKER_TABLE = "bench_dataset";

export interface DatasetSpec {
  key: "large" | "small" | "million";
  /** Contracts made in bulk, on top of the demo seed's `DEMO_CONTRACT_COUNT`: 100,200 and 1,000 in all. */
  bulkContracts: number;
  /** Template types made in bulk, on top of the demo seed's 5. */
  templateTypes: number;
}

export const DATASETS: Record<"large" | "small" | "million", DatasetSpec> = {
  large: { key: "large", bulkContracts: 100_200 - DEMO_CONTRACT_COUNT, templateTypes: 20_000 },
  small: { key: "small", bulkContracts: 1_000 - DEMO_CONTRACT_COUNT, templateTypes: 0 },
  // Opt-in (bench/scale.ts with BENCH_MILLION=1): 1,000,200 contracts, about 2.5 M parties, 3.9 M participants, 5 M data fields.
  million: { key: "million", bulkContracts: 1_000_200 - DEMO_CONTRACT_COUNT, templateTypes: 20_000 },
};

export interface DatasetMarker {
  version: number;
  key: string;
  bulkContracts: number;
  templateTypes: number;
  /** Rows after loading (contracts include the demo's). */
  rows: Record<string, number>;
  /** Rows with larger ids were added by benchmark runs (POST, PUT audit) and are removed on reuse. */
  maxContractId: number;
  maxAuditEventId: number;
  /** Seconds the first load took (migrations, demo seed, bulk insert, indexes, VACUUM ANALYZE). */
  loadSeconds: number;
  seedSeconds: number;
  bulkSeconds: number;
  vacuumSeconds: number;
  loadedAt: string;
}

export type DbTarget =
  | { kind: "postgres"; url: string; adminUrl: string; /** we chose the name, so we may drop it */ owned: boolean }
  | { kind: "pglite"; dir: string };

export interface EnsuredDataset {
  marker: DatasetMarker;
  reused: boolean;
  /** Seconds this call took (a reuse is a check and a clean-up). */
  seconds: number;
}

interface Opened {
  url: string;
  close(): Promise<void>;
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
}

async function open(target: DbTarget): Promise<Opened> {
  if (target.kind === "pglite") {
    const embedded = await startEmbeddedDatabase(target.dir);
    return { url: embedded.url, close: () => embedded.stop() };
  }
  const name = databaseName(target.url);
  await withClient(target.adminUrl, async (c) => {
    const { rowCount } = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await c.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  });
  return { url: target.url, close: async () => {} };
}

async function wipe(target: DbTarget): Promise<void> {
  if (target.kind === "pglite") {
    await rm(target.dir, { recursive: true, force: true });
    return;
  }
  const name = databaseName(target.url);
  await withClient(target.adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`));
}

async function readMarker(url: string): Promise<{ marker: DatasetMarker | null; hasData: boolean }> {
  return withClient(url, async (c) => {
    // Migrated but empty is fine to load into; rows of someone else's are not.
    const users = await c.query<{ t: string | null }>(`SELECT to_regclass('public.users')::text AS t`);
    const hasData = users.rows[0]!.t !== null && (await c.query("SELECT 1 FROM users LIMIT 1")).rowCount! > 0;
    const exists = await c.query<{ t: string | null }>(`SELECT to_regclass('public.${MARKER_TABLE}')::text AS t`);
    if (!exists.rows[0]!.t) return { marker: null, hasData };
    const { rows } = await c.query<{ value: DatasetMarker }>(`SELECT value FROM ${MARKER_TABLE} WHERE key = 'dataset'`);
    return { marker: rows[0]?.value ?? null, hasData };
  });
}

function matches(marker: DatasetMarker | null, spec: DatasetSpec): boolean {
  return (
    marker !== null &&
    marker.version === DATASET_VERSION &&
    marker.key === spec.key &&
    marker.bulkContracts === spec.bulkContracts &&
    marker.templateTypes === spec.templateTypes
  );
}

/** Makes sure `target` holds the data set `spec`, loading it when missing or outdated. */
export async function ensureDataset(target: DbTarget, spec: DatasetSpec): Promise<EnsuredDataset> {
  const started = performance.now();
  const where = target.kind === "pglite" ? target.dir : databaseName(target.url);
  if (target.kind === "pglite" && !existsSync(target.dir)) log(`${where}: no embedded database yet`);
  let db = await open(target);
  try {
    // Migrations first: a reused data set must follow the schema the app now has.
    await applyMigrations(db.url);
    const { marker, hasData } = await readMarker(db.url);
    if (marker && matches(marker, spec)) {
      await cleanUp(db.url, marker);
      return { marker, reused: true, seconds: (performance.now() - started) / 1000 };
    }
    if (hasData) {
      if (target.kind === "postgres" && !target.owned && !marker) {
        throw new Error(
          `${where} has data but no benchmark data set: refusing to drop it. Point DATABASE_URL at an empty database (or one the benchmark made).`,
        );
      }
      log(`${where}: ${marker ? `data set v${marker.version}/${marker.key} is outdated` : "incomplete data set"}; rebuilding`);
      await db.close();
      await wipe(target);
      db = await open(target);
      await applyMigrations(db.url);
    }
    log(`${where}: loading the ${spec.key} data set (${spec.bulkContracts.toLocaleString("en")} contracts in bulk + the demo seed)…`);
    const loaded = await load(db.url, spec, started);
    log(`${where}: loaded in ${loaded.loadSeconds.toFixed(1)} s (seed ${loaded.seedSeconds.toFixed(1)} s, bulk ${loaded.bulkSeconds.toFixed(1)} s, VACUUM ANALYZE ${loaded.vacuumSeconds.toFixed(1)} s)`);
    return { marker: loaded, reused: false, seconds: (performance.now() - started) / 1000 };
  } finally {
    await db.close();
  }
}

/** Removes what earlier benchmark runs added (created contracts, audit events), so every run starts alike. */
async function cleanUp(url: string, marker: DatasetMarker): Promise<void> {
  await withClient(url, async (c) => {
    const contracts = await c.query("DELETE FROM contracts WHERE id > $1", [marker.maxContractId]);
    const audits = await c.query("DELETE FROM audit_events WHERE id > $1", [marker.maxAuditEventId]);
    if ((contracts.rowCount ?? 0) + (audits.rowCount ?? 0) > 0) {
      log(`removed ${contracts.rowCount} contracts and ${audits.rowCount} audit events added by an earlier run`);
    }
    // The PUT scenario rewrites participants: keep dead rows from piling up run after run (PGlite
    // has no autovacuum). Cheap: VACUUM skips the pages the visibility map knows are clean.
    for (const table of ["participants", "contracts", "parties", "contract_data_fields", "audit_events"]) {
      await c.query(`VACUUM (ANALYZE) ${table}`);
    }
  });
}

const FIRST = ["Anna", "Erik", "Maja", "Lars", "Sofia", "Jonas", "Ingrid", "Mikael", "Elin", "Oskar", "Nora", "Emil"];
const LAST = ["Berg", "Lund", "Holm", "Nilsen", "Virtanen", "Jensen", "Strand", "Dahl", "Korhonen", "Sund"];
const COMPANIES = [
  "Nordic Timber AB", "Fjord Shipping AS", "Helsinki Robotics Oy", "Copenhagen Foods ApS", "Baltic Steel AB", "Aurora Software AS",
  "Lakeside Clinics Oy", "Greenfield Energy AB", "Polar Logistics AB", "Midnight Sun Media Oy", "Viking Dairy AS", "Oresund Bank AB",
];
const TITLES = ["CEO", "CFO", "Head of Sales", "Buyer", "Legal Counsel", "", ""];
/** Tables whose secondary indexes are dropped during the bulk insert and rebuilt after it. */
const BULK_TABLES = ["contracts", "parties", "participants", "contract_data_fields"];
/** Filled from its source view once the others are indexed (its triggers did not fire), then indexed. */
const SEARCH_TABLE = "contract_search";

const sqlText = (s: string) => `'${s.replaceAll("'", "''")}'`;
const sqlTextArray = (list: readonly string[]) => `ARRAY[${list.map(sqlText).join(", ")}]::text[]`;
/** A stable pseudo-random non-negative integer from an integer expression. */
const h = (expr: string) => `(hashint4((${expr})::int)::bigint & 2147483647)`;

async function load(url: string, spec: DatasetSpec, started: number): Promise<DatasetMarker> {
  // 1. The demo seed, through the same factories the app's first start uses.
  const seedStart = performance.now();
  const prisma = createPrismaClient(url, 2);
  try {
    await seedDemoData(prisma, { apiToken: BENCH_API_TOKEN, adminPassword: BENCH_ADMIN_PASSWORD });
  } finally {
    await prisma.$disconnect();
  }
  const seedSeconds = (performance.now() - seedStart) / 1000;

  // 2. The bulk rows, in one transaction.
  const bulkStart = performance.now();
  await withClient(url, async (c) => {
    const q = (text: string, values?: unknown[]) => c.query(text, values);
    await q("BEGIN");
    try {
      // Skip the foreign-key triggers row by row (the generator makes consistent rows); needs a
      // superuser, which the local server and PGlite are. Without one, the load is just slower.
      await q("SAVEPOINT role");
      try {
        await q("SET LOCAL session_replication_role = replica");
      } catch {
        await q("ROLLBACK TO SAVEPOINT role");
      }
      await q("SET LOCAL maintenance_work_mem = '256MB'");

      const { rows: wsRows } = await q(
        `SELECT id, company_name, country_code FROM workspaces ORDER BY id`,
      );
      const users = await q(`SELECT id, name, email, title FROM users WHERE email IN ('admin@example.com', 'editor@example.com', 'buyer@example.com')`);
      const user = (email: string) => {
        const u = users.rows.find((r) => r.email === email);
        if (!u) throw new Error(`demo user ${email} missing`);
        return u as { id: number; name: string; email: string; title: string };
      };
      const templates = await q(`SELECT id, name FROM templates WHERE name IN ('Mutual NDA', 'Sales agreement with SMS') ORDER BY id`);
      const nda = templates.rows.find((t) => t.name === "Mutual NDA") as { id: number; name: string } | undefined;
      const sales = templates.rows.find((t) => t.name === "Sales agreement with SMS") as { id: number; name: string } | undefined;
      if (!nda || !sales || wsRows.length < 3) throw new Error("the demo seed is not what the generator expects");

      // Two more workspaces, so the contracts spread over five.
      const extra = await q(
        `INSERT INTO workspaces (name, company_name, country_code, description) VALUES
           ('Bench North', 'Acme Nordic AB', 'SE', 'Benchmark workspace'),
           ('Bench South', 'Acme Danmark ApS', 'DK', 'Benchmark workspace')
         RETURNING id, company_name, country_code`,
      );
      for (const ws of extra.rows) await q(`INSERT INTO template_workspaces (template_id, workspace_id) VALUES ($1, $2)`, [nda.id, ws.id]);

      // Contracts use templates offering email / standard_esign / none, the options the generated
      // participants have, so the PUT scenario's bodies are valid for every one of them.
      const [salesWs, procurementWs, legalWs] = wsRows as { id: number; company_name: string; country_code: string }[];
      const plan = [
        { ws: salesWs!, owner: user("editor@example.com"), templates: [nda, sales] },
        { ws: procurementWs!, owner: user("buyer@example.com"), templates: [nda] },
        { ws: legalWs!, owner: user("admin@example.com"), templates: [nda, sales] },
        ...extra.rows.map((ws) => ({ ws: ws as { id: number; company_name: string; country_code: string }, owner: user("admin@example.com"), templates: [nda] })),
      ];
      await q(`CREATE TEMP TABLE ws_plan (idx int, ws_id int, owner_id int, owner_name text, owner_email text, owner_title text,
                 company text, country text, tpl_ids int[], tpl_names text[]) ON COMMIT DROP`);
      for (const [idx, p] of plan.entries()) {
        await q(`INSERT INTO ws_plan VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
          idx, p.ws.id, p.owner.id, p.owner.name, p.owner.email, p.owner.title, p.ws.company_name, p.ws.country_code,
          p.templates.map((t) => t.id), p.templates.map((t) => t.name),
        ]);
      }

      const max = async (table: string) => Number((await q(`SELECT coalesce(max(id), 0) AS m FROM ${table}`)).rows[0].m);
      const [c0, p0, q0, d0] = [await max("contracts"), await max("parties"), await max("participants"), await max("contract_data_fields")];

      // Secondary indexes: rebuilt once after the insert instead of maintained row by row.
      const indexes: { name: string; def: string }[] = [];
      for (const table of [...BULK_TABLES, SEARCH_TABLE]) {
        const { rows } = await q(
          `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
             FROM pg_index i
            WHERE i.indrelid = $1::regclass AND NOT i.indisprimary
              AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
          [table],
        );
        // A partitioned table's index is defined `ON ONLY` the table: made again, it covers its partitions.
        indexes.push(...(rows as { name: string; def: string }[]).map((ix) => ({ ...ix, def: ix.def.replace(" ON ONLY ", " ON ") })));
      }
      for (const ix of indexes) await q(`DROP INDEX ${ix.name}`);

      const n = spec.bulkContracts;
      const spanSeconds = 3 * 365 * 24 * 3600;
      // One row per contract with everything its children derive from.
      await q(
        `CREATE TEMP TABLE c_plan ON COMMIT DROP AS
         SELECT g, ${c0} + g AS id, g % ${plan.length} AS ws_idx,
                ${h("g")} AS h1, ${h("g + 100000007")} AS h2,
                (ARRAY['draft','draft','draft','pending','pending','signed','signed','declined','overdue'])[1 + ${h("g + 200000011")} % 9] AS state,
                1 + ${h("g + 300000007")} % 2 AS cp_count,
                now() - interval '${spanSeconds} seconds' + (g::float8 * ${spanSeconds / n}) * interval '1 second' AS created_at
           FROM generate_series(1, ${n}) AS g`,
      );
      await q(
        `INSERT INTO contracts (id, name, state, workspace_id, template_id, created_by_id, created_at, updated_at, state_updated_at)
         SELECT c.id,
                w.tpl_names[1 + c.h1 % cardinality(w.tpl_ids)] || ' – ' || (${sqlTextArray(COMPANIES)})[1 + c.h2 % ${COMPANIES.length}] || ' #' || c.g,
                c.state::contract_state, w.ws_id, w.tpl_ids[1 + c.h1 % cardinality(w.tpl_ids)], w.owner_id,
                c.created_at, c.created_at + (c.h2 % 2592000) * interval '1 second',
                -- The state last changed when the contract last did (not at load time: every declined
                -- contract would count as declined this month on the dashboard).
                c.created_at + (c.h2 % 2592000) * interval '1 second'
           FROM c_plan c JOIN ws_plan w ON w.idx = c.ws_idx`,
      );
      // Party k = 0 is the owner side; k = 1..cp_count are counterparties (60 % companies).
      await q(
        `CREATE TEMP TABLE p_plan ON COMMIT DROP AS
         SELECT c.id AS contract_id, c.g, k, c.state, c.ws_idx, c.created_at,
                ${p0} + (c.g - 1) * 3 + k + 1 AS id,
                CASE WHEN k = 0 OR ${h("c.g * 3 + k + 500000003")} % 10 < 6 THEN 'company' ELSE 'individual' END AS type,
                ${h("c.g * 3 + k + 700000001")} AS hp
           FROM c_plan c CROSS JOIN generate_series(0, 2) AS k
          WHERE k <= c.cp_count`,
      );
      // Participants: the owner (organizer, a user of the service) on the owner side; 1–4 people
      // per counterparty company, exactly one per individual.
      await q(
        `CREATE TEMP TABLE q_plan ON COMMIT DROP AS
         SELECT p.id AS party_id, p.k, j, p.state, p.created_at, p.ws_idx,
                ${q0} + (p.id - ${p0} - 1) * 4 + j + 1 AS id,
                (${sqlTextArray(FIRST)})[1 + ${h("p.id * 4 + j")} % ${FIRST.length}] AS first,
                (${sqlTextArray(LAST)})[1 + ${h("p.id * 4 + j + 900000011")} % ${LAST.length}] AS last,
                ${h("p.id * 4 + j + 1100000009")} AS hq
           FROM p_plan p
           CROSS JOIN LATERAL generate_series(0, CASE WHEN p.k > 0 AND p.type = 'company' THEN p.hp % 4 ELSE 0 END) AS j`,
      );
      await q(
        `INSERT INTO participants (id, party_id, user_id, name, title, email, phone_number, identification_number,
                                   delivery_channel, delivery_status, sign_method, sign_state, sign_state_updated_at,
                                   signatory, two_step_authentication_method, organizer, can_update_contract, visits,
                                   first_visited_at, last_visited_at, created_at, updated_at)
         SELECT x.id, x.party_id,
                CASE WHEN x.k = 0 THEN w.owner_id END,
                CASE WHEN x.k = 0 THEN w.owner_name ELSE x.first || ' ' || x.last END,
                CASE WHEN x.k = 0 THEN w.owner_title ELSE (${sqlTextArray(TITLES)})[1 + x.hq % ${TITLES.length}] END,
                CASE WHEN x.k = 0 THEN w.owner_email ELSE lower(x.first || '.' || x.last || '.' || x.id) || '@example.org' END,
                CASE WHEN x.k = 0 THEN '' ELSE '+4670' || lpad((x.hq % 10000000)::text, 7, '0') END,
                CASE WHEN x.k = 0 THEN '' WHEN pp.type = 'individual' THEN '19' || (50 + x.hq % 49) || '0101-' || (1000 + x.hq % 8999) ELSE '' END,
                'email'::delivery_channel,
                (CASE WHEN x.state = 'draft' THEN 'not_sent' ELSE 'success' END)::delivery_status,
                'standard_esign'::sign_method,
                (CASE WHEN x.k > 0 AND x.j = 0 AND x.state IN ('signed', 'declined') THEN x.state ELSE 'undecided' END)::sign_state,
                CASE WHEN x.k > 0 AND x.j = 0 AND x.state IN ('signed', 'declined') THEN x.created_at + interval '1 day' END,
                x.k > 0 AND x.j = 0,
                'none'::two_step_method,
                x.k = 0,
                x.k = 0 OR x.j = 0,
                CASE WHEN x.state = 'draft' THEN 0 ELSE x.hq % 5 END,
                CASE WHEN x.state <> 'draft' AND x.hq % 5 > 0 THEN x.created_at + interval '2 hours' END,
                CASE WHEN x.state <> 'draft' AND x.hq % 5 > 0 THEN x.created_at + interval '3 hours' END,
                x.created_at, x.created_at
           FROM q_plan x
           JOIN p_plan pp ON pp.id = x.party_id
           JOIN ws_plan w ON w.idx = x.ws_idx`,
      );
      // An individual party's name and number are its participant's.
      await q(
        `INSERT INTO parties (id, contract_id, type, name, country_code, identification_number, my_party, created_at)
         SELECT p.id, p.contract_id, p.type::party_type,
                CASE WHEN p.k = 0 THEN w.company
                     WHEN p.type = 'individual' THEN x.name
                     ELSE (${sqlTextArray(COMPANIES)})[1 + p.hp % ${COMPANIES.length}] END,
                CASE WHEN p.k = 0 THEN w.country ELSE (ARRAY['SE','NO','FI','DK'])[1 + p.hp % 4] END,
                CASE WHEN p.k = 0 THEN '' WHEN p.type = 'individual' THEN x.identification_number
                     ELSE (556000 + p.hp % 99999)::text || '-' || (1000 + p.hp % 8999)::text END,
                p.k = 0, p.created_at
           FROM p_plan p
           JOIN ws_plan w ON w.idx = p.ws_idx
           LEFT JOIN participants x ON p.type = 'individual' AND x.id = ${q0} + (p.id - ${p0} - 1) * 4 + 1`,
      );
      await q(
        `INSERT INTO contract_data_fields (id, contract_id, name, description, placeholder, value, custom_id, created_at, updated_at)
         SELECT ${d0} + (c.g - 1) * 5 + f.n, c.id, f.name, f.description, f.placeholder,
                CASE f.n WHEN 1 THEN to_char(c.created_at, 'YYYY-MM-DD') WHEN 2 THEN (12 + c.h1 % 4 * 12)::text
                         WHEN 3 THEN (1000 + c.h2 % 99000)::text WHEN 4 THEN to_char(c.created_at + interval '30 days', 'YYYY-MM-DD')
                         ELSE '30 days net' END,
                f.custom_id, c.created_at, c.created_at
           FROM c_plan c
           CROSS JOIN (VALUES (1, 'Effective date', '', 'YYYY-MM-DD', 'effective_date'),
                              (2, 'Term (months)', 'Length of the agreement', '', 'term'),
                              (3, 'Order value', '', 'EUR', 'order_value'),
                              (4, 'Delivery date', '', 'YYYY-MM-DD', 'delivery_date'),
                              (5, 'Payment terms', '', '', 'payment_terms')) AS f(n, name, description, placeholder, custom_id)`,
      );
      if (spec.templateTypes > 0) {
        await q(
          `INSERT INTO template_types (name, description, extension_type, created_at, updated_at)
           SELECT 'Template type ' || lpad(g::text, 5, '0'), 'Generated for the benchmark', (ARRAY['pdf', 'docx', 'html'])[1 + g % 3],
                  now() - (${spec.templateTypes} - g) * interval '1 minute', now() - (${spec.templateTypes} - g) * interval '1 minute'
             FROM generate_series(1, ${spec.templateTypes}) AS g`,
        );
      }
      for (const table of BULK_TABLES) {
        await q(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
      }
      const searchIndex = (ix: { name: string }) => ix.name.startsWith(SEARCH_TABLE);
      for (const ix of indexes.filter((ix) => !searchIndex(ix))) await q(ix.def);
      // The search triggers did not fire either: each new contract's document from the one source
      // the triggers use (migration contract_search), then its GIN indexes.
      const searchStart = performance.now();
      await q(`INSERT INTO contract_search (contract_id, workspace_id, name, doc, tsv, state)
               SELECT contract_id, workspace_id, name, doc, tsv, state FROM contract_search_source WHERE contract_id > ${c0}`);
      for (const ix of indexes.filter(searchIndex)) await q(ix.def);
      log(`search documents and their indexes: ${((performance.now() - searchStart) / 1000).toFixed(1)} s`);
      // The count triggers on contracts did not fire under the replica role: count afresh.
      for (const sql of RECOUNT_CONTRACTS_SQL) await q(sql);
      await q("COMMIT");
    } catch (error) {
      await q("ROLLBACK").catch(() => undefined);
      throw error;
    }
  });
  const bulkSeconds = (performance.now() - bulkStart) / 1000;

  // 3. Statistics and the visibility map (index-only scans), as a long-running database has them.
  const vacuumStart = performance.now();
  await withClient(url, async (c) => {
    await c.query("VACUUM ANALYZE");
  });
  const vacuumSeconds = (performance.now() - vacuumStart) / 1000;

  return withClient(url, async (c) => {
    const rows: Record<string, number> = {};
    for (const table of ["contracts", "parties", "participants", "contract_data_fields", "template_types", "workspaces", "users"]) {
      rows[table] = Number((await c.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
    }
    const maxId = async (table: string) => Number((await c.query(`SELECT coalesce(max(id), 0) AS m FROM ${table}`)).rows[0].m);
    const marker: DatasetMarker = {
      version: DATASET_VERSION,
      key: spec.key,
      bulkContracts: spec.bulkContracts,
      templateTypes: spec.templateTypes,
      rows,
      maxContractId: await maxId("contracts"),
      maxAuditEventId: await maxId("audit_events"),
      loadSeconds: (performance.now() - started) / 1000,
      seedSeconds,
      bulkSeconds,
      vacuumSeconds,
      loadedAt: new Date().toISOString(),
    };
    await c.query(`CREATE TABLE IF NOT EXISTS ${MARKER_TABLE} (key text PRIMARY KEY, value jsonb NOT NULL)`);
    await c.query(
      `INSERT INTO ${MARKER_TABLE} (key, value) VALUES ('dataset', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [JSON.stringify(marker)],
    );
    return marker;
  });
}

/** Database targets of one run. */
export function postgresTarget(url: string, adminUrl: string, owned: boolean): DbTarget {
  return { kind: "postgres", url, adminUrl, owned };
}
