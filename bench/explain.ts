// Query plans of the contracts list on PostgreSQL. The SQL is not written here: the app's own
// service (`listContracts`) runs with a Prisma client that reports every statement, and each
// statement it sent is explained with EXPLAIN (ANALYZE, BUFFERS) with the same parameters.
// Sequential scans of contracts or parties, and sorts of many rows, are flagged.
//
//   npm run bench runs it; alone: tsx bench/explain.ts [postgresql://…/contracts_bench]
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { authStatementSql, type TPreload } from "@/lib/api/auth";
import { templateTypesPreload } from "@/lib/api/json/template-type";
import { hashApiToken } from "@/lib/domain/access";
import { contractDetailPreload, contractListPreload } from "@/lib/api/json/contract";
import { dataFieldsPreload } from "@/lib/api/json/data-field";
import { dashboardPreload } from "@/lib/api/json/dashboard";
import { updateTargetsPreload } from "@/lib/services/participants/update-participant";
import { ZContractListQuerySchema } from "@/lib/schemas";
import { BENCH_API_TOKEN, BENCH_USER_EMAIL, OUTPUT, RESULTS_DIR, postgresUrls } from "./config";
import { FLOOR_STATEMENTS, floorParams, type FloorStatement } from "./floor-sql";

export interface ExplainedStatement {
  /** page | count | parties | other */
  role: string;
  sql: string;
  params: unknown[];
  executionMs: number;
  planningMs: number;
  /** Node types from the top of the plan down, e.g. ["Limit", "Index Scan using contracts_pkey on contracts"]. */
  nodes: string[];
  sharedHit: number;
  sharedRead: number;
  flags: string[];
}

export interface ExplainCase {
  name: string;
  actor: string;
  query: Record<string, string>;
  statements: ExplainedStatement[];
  flags: string[];
}

export interface ExplainReport {
  database: string;
  cases: ExplainCase[];
  /** The authentication's user lookup, as run and with sequential scans disabled. */
  auth?: { sql: string; params: unknown[]; plain: Omit<ExplainedStatement, "role" | "sql" | "params">; forced: Omit<ExplainedStatement, "role" | "sql" | "params">; flags: string[] };
  flagged: { case: string; role: string; flag: string }[];
  /** The hot statements (HOT_STATEMENTS), each explained inside a transaction that is rolled back. */
  hot?: ExplainedHot[];
}

/** Rows of the data set a hot statement's sample parameters name. */
export interface SampleIds {
  contractId: number;
  partyId: number;
  participantId: number;
}

export interface HotStatement {
  name: string;
  /** The SQL and its parameters for the sample rows (a PUT's changes are rolled back). */
  make(ids: SampleIds): { sql: string; params: unknown[] };
}

export interface ExplainedHot {
  name: string;
  sql: string;
  params: unknown[];
  executionMs: number;
  planningMs: number;
  /** EXPLAIN (ANALYZE, BUFFERS) as text. */
  plan: string;
  flags: string[];
}

const floor = (statement: FloorStatement, extra: { offset?: number } = {}) => (ids: SampleIds) => ({
  sql: FLOOR_STATEMENTS[statement],
  params: floorParams(statement, { token: BENCH_API_TOKEN, email: BENCH_USER_EMAIL, origin: "http://127.0.0.1:3000", ...ids, ...extra }),
});

/**
 * The hot statements whose plans explain.txt shows, by name; adding one is one line (the app's own
 * statements can be added the same way: `{ name, make: (ids) => ({ sql, params }) }`).
 */
/** The app's own statement for a request: authentication and the route's preload (lib/api/auth.ts). */
const app = (preload: (ids: SampleIds) => TPreload, email: string = BENCH_USER_EMAIL) => (ids: SampleIds) => {
  const credentials = { tokenHash: hashApiToken(BENCH_API_TOKEN), email, userId: null };
  const { text, values } = authStatementSql(credentials, preload(ids));
  return { sql: text, params: values };
};
const LIST = { limit: 100, sort: "id" } as const;

export const HOT_STATEMENTS: HotStatement[] = [
  { name: "app: GET /v1/contracts/{id}", make: app((ids) => contractDetailPreload(ids.contractId, "http://127.0.0.1:3000")) },
  { name: "app: GET /v1/contracts/{id}/data_fields?limit=all", make: app((ids) => dataFieldsPreload(ids.contractId, { limit: "all", offset: 0 }, "http://127.0.0.1:3000")) },
  { name: "app: GET /v1/contracts?limit=100&offset=0", make: app(() => contractListPreload({ ...LIST, offset: 0 }, "http://127.0.0.1:3000")) },
  { name: "app: GET /v1/contracts?limit=100&offset=19900", make: app(() => contractListPreload({ ...LIST, offset: 19_900 }, "http://127.0.0.1:3000")) },
  { name: "app: GET /v1/template_types?offset=19900", make: app(() => templateTypesPreload({ limit: 100, offset: 19_900 }, "http://127.0.0.1:3000")) },
  { name: "app: PUT …/participants/{id} (what it checks, read with the credentials)", make: app(updateTargetsPreload) },
  // Five counts and the failed deliveries, each on an index (their plans: bench/results/explain.txt);
  // as the admin (every workspace) and as a member (the counts scoped), each held to 50 ms
  // (bench/report.ts DASHBOARD_LIMIT_MS, which finds them by this name's start).
  { name: "app: GET /v1/dashboard", make: app(() => dashboardPreload(new Date())) },
  { name: "app: GET /v1/dashboard (editor, 2 workspaces)", make: app(() => dashboardPreload(new Date()), "editor@example.com") },
  { name: "floor: GET /v1/contracts/{id}", make: floor("getContract") },
  { name: "floor: GET /v1/contracts/{id}/data_fields?limit=all", make: floor("listDataFields") },
  { name: "floor: GET /v1/contracts?limit=100&offset=0", make: floor("listContracts", { offset: 0 }) },
  { name: "floor: GET /v1/contracts?limit=100&offset=19900", make: floor("listContracts", { offset: 19_900 }) },
  { name: "floor: GET /v1/template_types?offset=19900", make: floor("listTemplateTypes", { offset: 19_900 }) },
  { name: "floor: PUT …/participants/{id} (title; rolled back)", make: floor("updateParticipant") },
];

/** A draft contract's counterparty participant (what the PUT scenario changes) and its contract. */
async function sampleIds(client: pg.Client): Promise<SampleIds> {
  const { rows } = await client.query<{ contract_id: number; party_id: number; participant_id: number }>(
    `SELECT c.id AS contract_id, p.id AS party_id, q.id AS participant_id
       FROM contracts c JOIN parties p ON p.contract_id = c.id AND NOT p.my_party JOIN participants q ON q.party_id = p.id
      WHERE c.state = 'draft' AND c.id > 50000 ORDER BY c.id LIMIT 1`,
  );
  if (!rows[0]) throw new Error("no draft contract with a counterparty participant");
  return { contractId: rows[0].contract_id, partyId: rows[0].party_id, participantId: rows[0].participant_id };
}

/** Each hot statement run once to warm up, then as EXPLAIN (ANALYZE, BUFFERS), in a transaction rolled back. */
export async function explainHot(client: pg.Client, statements: HotStatement[] = HOT_STATEMENTS): Promise<ExplainedHot[]> {
  const ids = await sampleIds(client);
  const out: ExplainedHot[] = [];
  for (const s of statements) {
    const warmUp = s.make(ids);
    const { sql, params } = s.make(ids);
    await client.query("BEGIN");
    try {
      await client.query(warmUp.sql, warmUp.params);
      const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
      const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
      const ms = (label: string) => Number(new RegExp(`${label} Time: ([\\d.]+) ms`).exec(plan)?.[1] ?? NaN);
      const flags: string[] = [];
      for (const m of plan.matchAll(/Seq Scan on (\w+)/g)) if (BIG_TABLES.includes(m[1]!)) flags.push(`sequential scan of ${m[1]}`);
      for (const m of plan.matchAll(/Sort Method: (.+?)\s+(?:Memory|Disk)/g)) if (/external/.test(m[1]!)) flags.push(`sort spills to disk (${m[1]})`);
      out.push({ name: s.name, sql, params, executionMs: ms("Execution"), planningMs: ms("Planning"), plan, flags });
    } finally {
      await client.query("ROLLBACK");
    }
  }
  return out;
}

const BIG_TABLES = ["contracts", "parties", "participants", "contract_data_fields"];
const BIG_SORT_ROWS = 5_000;

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Sort Method"?: string;
  "Rows Removed by Filter"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
};

function walk(node: PlanNode, visit: (n: PlanNode, depth: number) => void, depth = 0) {
  visit(node, depth);
  for (const child of node.Plans ?? []) walk(child, visit, depth + 1);
}

function describe(node: PlanNode): string {
  let s = node["Node Type"];
  if (node["Index Name"]) s += ` using ${node["Index Name"]}`;
  if (node["Relation Name"]) s += ` on ${node["Relation Name"]}`;
  if (node["Actual Rows"] !== undefined) s += ` (rows=${node["Actual Rows"]}${(node["Actual Loops"] ?? 1) > 1 ? ` ×${node["Actual Loops"]}` : ""})`;
  return s;
}

async function explainOne(client: pg.Client, sql: string, params: unknown[]): Promise<Omit<ExplainedStatement, "role" | "sql" | "params">> {
  const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
  const top = (rows[0]["QUERY PLAN"] as { Plan: PlanNode; "Execution Time": number; "Planning Time": number }[])[0]!;
  const nodes: string[] = [];
  const flags: string[] = [];
  walk(top.Plan, (n, depth) => {
    nodes.push(`${"  ".repeat(depth)}${describe(n)}`);
    const rel = n["Relation Name"];
    if (n["Node Type"] === "Seq Scan" && rel && BIG_TABLES.includes(rel)) {
      flags.push(`sequential scan of ${rel} (${n["Actual Rows"]} rows kept, ${n["Rows Removed by Filter"] ?? 0} removed)`);
    }
    if (n["Node Type"] === "Sort" || n["Node Type"] === "Incremental Sort") {
      const input = n.Plans?.[0]?.["Actual Rows"] ?? 0;
      if (input >= BIG_SORT_ROWS) flags.push(`sorts ${input} rows (${n["Sort Method"] ?? "?"}) instead of reading them in index order`);
    }
    if ((n["Rows Removed by Filter"] ?? 0) * (n["Actual Loops"] ?? 1) >= 50_000 && rel && BIG_TABLES.includes(rel)) {
      flags.push(`${describe(n)} discards ${(n["Rows Removed by Filter"] ?? 0) * (n["Actual Loops"] ?? 1)} rows by filter`);
    }
  });
  return {
    executionMs: Math.round(top["Execution Time"] * 100) / 100,
    planningMs: Math.round(top["Planning Time"] * 100) / 100,
    nodes,
    sharedHit: top.Plan["Shared Hit Blocks"] ?? 0,
    sharedRead: top.Plan["Shared Read Blocks"] ?? 0,
    flags,
  };
}

export async function runExplain(databaseUrl: string, options: { write?: boolean } = {}): Promise<ExplainReport> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const sales = (await client.query<{ id: number }>(`SELECT id FROM workspaces WHERE name = 'Sales'`)).rows[0]?.id;
    // The app's list statement (authentication and the page in one, lib/api/auth.ts) as the admin,
    // and as a staff user limited to two workspaces (editor in Sales, viewer in Legal Norway).
    const admin = "admin@example.com";
    const editor = "editor@example.com";
    if (sales === undefined) throw new Error("the data set lacks the demo workspaces");
    const ws = String(sales);
    const cases: { name: string; actor: [string, string]; query: Record<string, string> }[] = [];
    for (const offset of ["0", "19900"]) {
      const a: [string, string] = ["admin", admin];
      const e: [string, string] = ["editor (2 workspaces)", editor];
      cases.push(
        { name: `default order, offset ${offset}`, actor: a, query: { offset } },
        { name: `workspace_id filter, offset ${offset}`, actor: a, query: { offset, workspace_id: ws } },
        { name: `state=draft, offset ${offset}`, actor: a, query: { offset, state: "draft" } },
        { name: `workspace_id + state, offset ${offset}`, actor: a, query: { offset, workspace_id: ws, state: "pending" } },
        { name: `sort=name, offset ${offset}`, actor: a, query: { offset, sort: "name" } },
        { name: `sort=-created_time, offset ${offset}`, actor: a, query: { offset, sort: "-created_time" } },
        { name: `sort=-updated_time, offset ${offset}`, actor: a, query: { offset, sort: "-updated_time" } },
        { name: `workspace_id + sort=-updated_time, offset ${offset}`, actor: a, query: { offset, workspace_id: ws, sort: "-updated_time" } },
        { name: `state=draft + sort=name, offset ${offset}`, actor: a, query: { offset, state: "draft", sort: "name" } },
        { name: `workspace_id + sort=name, offset ${offset}`, actor: a, query: { offset, workspace_id: ws, sort: "name" } },
        { name: `state=pending + sort=-updated_time, offset ${offset}`, actor: a, query: { offset, state: "pending", sort: "-updated_time" } },
        { name: `non-admin scope, offset ${offset}`, actor: e, query: { offset } },
        { name: `non-admin scope + sort=-created_time, offset ${offset}`, actor: e, query: { offset, sort: "-created_time" } },
      );
    }

    const report: ExplainReport = { database: new URL(databaseUrl).pathname.slice(1), cases: [], flagged: [] };
    for (const c of cases) {
      const query = ZContractListQuerySchema.parse({ limit: "100", ...c.query });
      const { text, values } = authStatementSql({ tokenHash: hashApiToken(BENCH_API_TOKEN), email: c.actor[1], userId: null }, contractListPreload(query, "http://127.0.0.1:3000"));
      const statements: ExplainedStatement[] = [{ role: "page", sql: text, params: values, ...(await explainOne(client, text, values)) }];
      const flags = statements.flatMap((s) => s.flags.map((f) => `${s.role}: ${f}`));
      report.cases.push({ name: c.name, actor: c.actor[0], query: c.query, statements, flags });
      for (const s of statements) for (const flag of s.flags) report.flagged.push({ case: c.name, role: s.role, flag });
    }
    // The authentication alone (every API request's; routes with a preload add to it): explained as
    // is, and with sequential scans disabled, which shows whether an index serves the user lookup.
    {
      const { text, values } = authStatementSql({ tokenHash: hashApiToken(BENCH_API_TOKEN), email: admin, userId: null }, undefined);
      const plain = await explainOne(client, text, values);
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off");
      const forced = await explainOne(client, text, values);
      await client.query("ROLLBACK");
      const flags = forced.nodes.some((n) => /using \S*email\S* on users/.test(n)) ? [] : ["no index on users.email serves the user lookup"];
      report.auth = { sql: text, params: values, plain, forced, flags };
      for (const flag of flags) report.flagged.push({ case: "auth: user by e-mail", role: "users", flag });
    }
    report.hot = await explainHot(client);
    for (const h of report.hot) for (const flag of h.flags) report.flagged.push({ case: h.name, role: "hot", flag });
    if (options.write !== false) await writeFile(path.join(RESULTS_DIR, OUTPUT.explain), formatExplain(report));
    return report;
  } finally {
    await client.end();
  }
}

/** The plans as text: one block per case. */
export function formatExplain(report: ExplainReport): string {
  const out: string[] = [`EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL (${report.database})`, ""];
  if (report.hot) {
    out.push("# Hot statements (bench/explain.ts HOT_STATEMENTS; each in a transaction rolled back, after one warm-up run)", "");
    for (const h of report.hot) {
      out.push(`## ${h.name} — ${h.executionMs} ms (planning ${h.planningMs} ms)${h.flags.length ? `  ⚠ ${h.flags.join("; ")}` : ""}`);
      out.push(`  params ${JSON.stringify(h.params).slice(0, 300)}`);
      out.push(...h.plan.split("\n").map((l) => `  ${l}`), "");
    }
    out.push("# The app's contracts list (listContracts), statement by statement", "");
  }
  for (const c of report.cases) {
    out.push(`## ${c.name} — ${c.actor} — ${new URLSearchParams(c.query).toString()}`);
    for (const s of c.statements) {
      out.push(`  [${s.role}] ${s.executionMs} ms (planning ${s.planningMs} ms), buffers hit ${s.sharedHit} read ${s.sharedRead}`);
      out.push(`    ${s.sql}`);
      out.push(`    params ${JSON.stringify(s.params).slice(0, 200)}`);
      for (const n of s.nodes) out.push(`      ${n}`);
      for (const f of s.flags) out.push(`    ⚠ ${f}`);
    }
    out.push("");
  }
  if (report.auth) {
    out.push("## authentication: user by e-mail (every API request)");
    out.push(`    ${report.auth.sql}`);
    out.push(`    params ${JSON.stringify(report.auth.params)}`);
    out.push(`  as planned: ${report.auth.plain.executionMs} ms`);
    for (const n of report.auth.plain.nodes) out.push(`      ${n}`);
    out.push(`  with enable_seqscan = off: ${report.auth.forced.executionMs} ms`);
    for (const n of report.auth.forced.nodes) out.push(`      ${n}`);
    for (const f of report.auth.flags) out.push(`    ⚠ ${f}`);
  }
  return out.join("\n");
}

/** A short table for the console. */
export function summarizeExplain(report: ExplainReport): string {
  const lines = report.cases.map((c) => {
    const ms = (role: string) => c.statements.find((s) => s.role === role)?.executionMs ?? 0;
    return `  ${c.name.padEnd(48)} ${c.actor.padEnd(22)} page ${ms("page").toFixed(1).padStart(7)} ms  count ${ms("count").toFixed(1).padStart(7)} ms  parties ${ms("parties").toFixed(1).padStart(6)} ms${c.flags.length ? `  ⚠ ${c.flags.join("; ")}` : ""}`;
  });
  if (report.auth) lines.push(`  auth: user by e-mail (${report.auth.plain.executionMs} ms)${report.auth.flags.length ? `  ⚠ ${report.auth.flags.join("; ")}` : ""}`);
  for (const h of report.hot ?? []) lines.push(`  ${h.name.padEnd(60)} ${h.executionMs.toFixed(2).padStart(8)} ms (planning ${h.planningMs.toFixed(2)} ms)${h.flags.length ? `  ⚠ ${h.flags.join("; ")}` : ""}`);
  return lines.join("\n");
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const url = process.argv[2] ?? postgresUrls().large;
  const report = await runExplain(url);
  console.log(summarizeExplain(report));
  console.log(`\nfull plans: ${path.join(RESULTS_DIR, OUTPUT.explain)}`);
  process.exit(0);
}
