// Before a scenario is measured, the app, the reference route and the floor must give the same
// answers: the same few requests go to each (with one fixed Host header, so the links, which all
// three build from the request's Host as the app does, are comparable) and the JSON bodies are
// compared deep-equal, keys in the same order. For the PUT, each server changes the same participant in turn with its own
// new title; only what a change must change is masked (the title, which must be the one sent; the
// participant's updated_time, which must move on), and the rows written are compared too: one audit
// event per change with the same content, the version incremented once, the party and the contract
// touched at the participant's time. A mismatch is a benchmark problem: printed, recorded, and the scenario's
// targets are marked not met.
import http from "node:http";
import pg from "pg";
import { BENCH_API_TOKEN, BENCH_USER_EMAIL } from "./config";
import type { PathRewrite, RequestSpec, Scenario } from "./load";

export interface CompareTarget {
  name: string;
  baseUrl: string;
  rewrite: PathRewrite;
}

export interface CompareResult {
  scenario: string;
  servers: string[];
  requests: number;
  identical: boolean;
  /** What differed, as `server: path: expected … got …` (at most a few). */
  mismatches: string[];
}

const HOST = "bench-compare.example:8080";

interface Answer {
  status: number;
  etag: string | undefined;
  json: unknown;
  text: string;
}

function request(baseUrl: string, spec: RequestSpec, rewrite: PathRewrite): Promise<Answer> {
  const url = new URL(baseUrl);
  const body = spec.rawBody ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: spec.method,
        path: rewrite(spec.path),
        headers: {
          host: HOST,
          accept: "application/json",
          "x-service-api-token": BENCH_API_TOKEN,
          "x-service-user-email": BENCH_USER_EMAIL,
          ...(body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
          ...spec.headers,
        },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown = undefined;
          try {
            json = JSON.parse(text);
          } catch {
            // compared as text below
          }
          resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, json, text });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.end(body);
  });
}

/** Paths where `a` and `b` differ (key order ignored), at most `max`. */
export function differences(a: unknown, b: unknown, path = "$", out: string[] = [], max = 5): string[] {
  if (out.length >= max) return out;
  if (Object.is(a, b)) return out;
  const show = (v: unknown) => {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 80 ? `${s.slice(0, 77)}…` : s;
  };
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    out.push(`${path}: ${show(a)} ≠ ${show(b)}`);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: ${a.length} items ≠ ${b.length} items`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) differences(a[i], b[i], `${path}[${i}]`, out, max);
    return out;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
    if (!(key in ao)) out.push(`${path}.${key}: missing ≠ ${show(bo[key])}`);
    else if (!(key in bo)) out.push(`${path}.${key}: ${show(ao[key])} ≠ missing`);
    else differences(ao[key], bo[key], `${path}.${key}`, out, max);
    if (out.length >= max) break;
  }
  return out;
}

/** `differences`, and when there are none, whether the keys come in another order (clients may read the text). */
function differencesInOrder(a: unknown, b: unknown): string[] {
  const found = differences(a, b);
  if (found.length === 0 && JSON.stringify(a) !== JSON.stringify(b)) found.push("$: the same keys and values in another order");
  return found;
}

/** GET scenarios (and ping): the same requests everywhere, the answers equal, keys in the same order. */
async function compareReads(targets: CompareTarget[], scenario: Scenario, n: number): Promise<CompareResult> {
  const mismatches: string[] = [];
  for (let i = 0; i < n; i++) {
    const spec = scenario.make(i);
    const answers = await Promise.all(targets.map((t) => request(t.baseUrl, spec, t.rewrite)));
    const [first, ...rest] = answers;
    if (first!.status !== 200) mismatches.push(`${targets[0]!.name}: ${spec.method} ${spec.path} answered ${first!.status}: ${first!.text.slice(0, 200)}`);
    rest.forEach((a, k) => {
      const name = targets[k + 1]!.name;
      if (a.status !== first!.status) mismatches.push(`${name}: ${spec.path}: status ${a.status} ≠ ${targets[0]!.name}'s ${first!.status}: ${a.text.slice(0, 200)}`);
      for (const d of differencesInOrder(first!.json, a.json)) mismatches.push(`${name} vs ${targets[0]!.name}: ${spec.path}: ${d}`);
    });
  }
  return { scenario: scenario.id, servers: targets.map((t) => t.name), requests: n * targets.length, identical: mismatches.length === 0, mismatches };
}

interface WrittenState {
  title: string;
  version: number;
  participantUpdatedAt: string;
  partyUpdatedAt: string | null;
  contractUpdatedAt: string;
  auditEvents: number;
  lastAudit: Record<string, unknown> | null;
}

async function writtenState(db: pg.Client, p: { contractId: number; partyId: number; participantId: number }): Promise<WrittenState> {
  const { rows } = await db.query(
    `SELECT q.title, q.version, q.updated_at::text AS q_at, p.updated_at::text AS p_at, c.updated_at::text AS c_at,
            (SELECT count(*)::int FROM audit_events a WHERE a.entity_type = 'participant' AND a.entity_id = q.id) AS events,
            (SELECT row_to_json(a) FROM (SELECT action, entity_type, entity_id, contract_id, actor_user_id, api_token_id, via::text AS via,
                    request_id IS NOT NULL AS has_request_id, before, after, workspace_id, actor_name, actor_email,
                    chain_seq IS NOT NULL AS chained, created_at::text AS created_at
               FROM audit_events a WHERE a.entity_type = 'participant' AND a.entity_id = q.id ORDER BY a.id DESC LIMIT 1) a) AS last
       FROM participants q JOIN parties p ON p.id = q.party_id JOIN contracts c ON c.id = p.contract_id WHERE q.id = $1`,
    [p.participantId],
  );
  const r = rows[0];
  return { title: r.title, version: r.version, participantUpdatedAt: r.q_at, partyUpdatedAt: r.p_at, contractUpdatedAt: r.c_at, auditEvents: r.events, lastAudit: r.last };
}

/**
 * The PUT: each server in turn changes the same participant's title. Their answers must be the
 * same but for the title (each the one it sent) and updated_time (later each time); the ETag must
 * name the next version; the database must show the same writes after each (one more audit event
 * with the same content but the titles, the party's and the contract's updated_at = the participant's).
 */
async function compareUpdate(targets: CompareTarget[], scenario: Scenario, databaseUrl: string, n: number): Promise<CompareResult> {
  const mismatches: string[] = [];
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    for (let i = 0; i < n; i++) {
      const spec = scenario.make(i);
      const m = /^\/v1\/contracts\/(\d+)\/parties\/(\d+)\/participants\/(\d+)$/.exec(spec.path);
      if (!m) throw new Error(`not a participant PUT: ${spec.path}`);
      const ids = { contractId: Number(m[1]), partyId: Number(m[2]), participantId: Number(m[3]) };
      let reference: { name: string; answer: Answer; audit: Record<string, unknown> | null } | null = null;
      for (const [k, t] of targets.entries()) {
        const before = await writtenState(db, ids);
        const title = `Compare ${t.name} ${i} ${Date.now().toString(36)}${k}`;
        const answer = await request(t.baseUrl, { ...spec, body: { title } }, t.rewrite);
        const after = await writtenState(db, ids);
        const where = `${t.name}: PUT ${spec.path}`;
        if (answer.status !== 200) {
          mismatches.push(`${where} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
          continue;
        }
        const body = answer.json as Record<string, unknown> & { _private_ownerside?: Record<string, unknown> };
        if (body.title !== title) mismatches.push(`${where}: title ${JSON.stringify(body.title)} ≠ the one sent`);
        if (answer.etag !== `"p${ids.participantId}-v${before.version + 1}"`) mismatches.push(`${where}: ETag ${answer.etag} ≠ "p${ids.participantId}-v${before.version + 1}"`);
        if (after.version !== before.version + 1) mismatches.push(`${where}: version ${before.version} → ${after.version} (one increment expected)`);
        if (after.auditEvents !== before.auditEvents + 1) mismatches.push(`${where}: ${after.auditEvents - before.auditEvents} audit events written (1 expected)`);
        if (after.partyUpdatedAt !== after.participantUpdatedAt) mismatches.push(`${where}: party updated_at ${after.partyUpdatedAt} ≠ participant's ${after.participantUpdatedAt}`);
        if (after.contractUpdatedAt !== after.participantUpdatedAt) mismatches.push(`${where}: contract updated_at ${after.contractUpdatedAt} ≠ participant's ${after.participantUpdatedAt}`);
        const audit = after.lastAudit && { ...after.lastAudit, created_at: "(masked)", before: "(title)", after: "(title)" };
        const expectedAudit = { before: { title: before.title }, after: { title } };
        const gotAudit = { before: after.lastAudit?.before, after: after.lastAudit?.after };
        if (JSON.stringify(gotAudit) !== JSON.stringify(expectedAudit)) {
          mismatches.push(`${where}: audit before/after ${JSON.stringify(gotAudit)} ≠ ${JSON.stringify(expectedAudit)}`);
        }
        const masked = { ...body, title: "(sent)", _private_ownerside: { ...body._private_ownerside, updated_time: "(masked)" } };
        if (reference === null) reference = { name: t.name, answer: { ...answer, json: masked }, audit };
        else {
          for (const d of differencesInOrder(reference.answer.json, masked)) mismatches.push(`${t.name} vs ${reference.name}: PUT ${spec.path}: ${d}`);
          for (const d of differences(reference.audit, audit)) mismatches.push(`${t.name} vs ${reference.name}: audit event of PUT ${spec.path}: ${d}`);
        }
      }
    }
  } finally {
    await db.end();
  }
  return { scenario: scenario.id, servers: targets.map((t) => t.name), requests: n * targets.length, identical: mismatches.length === 0, mismatches };
}

export async function compareAnswers(targets: CompareTarget[], scenario: Scenario, databaseUrl: string, n = 3): Promise<CompareResult> {
  try {
    return scenario.kind === "update" ? await compareUpdate(targets, scenario, databaseUrl, n) : await compareReads(targets, scenario, n);
  } catch (error) {
    return { scenario: scenario.id, servers: targets.map((t) => t.name), requests: 0, identical: false, mismatches: [`the comparison failed: ${(error as Error).message}`] };
  }
}
