// The bench's floor (bench/floor-sql.ts: its own SQL, sharing nothing with lib/) must answer what
// the app answers, byte for byte in key order, or the bench refuses to measure (bench/compare.ts).
// Here both answer the bench's requests on the demo data set (in-memory PGlite) with every
// nullable field of the answers filled somewhere, so a change to an answer's shape goes red in
// `npm test` instead of at bench time. The app is called through its route handlers, in process.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const state = vi.hoisted(() => {
  process.env.LOG_LEVEL = "warn"; // no request lines
  return { prisma: undefined as unknown };
});
vi.mock("@/lib/db", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/db")>();
  return { ...actual, getPrisma: async () => state.prisma, readyPrisma: () => state.prisma, databaseStatus: () => "ready" };
});

import { poolOf } from "@/lib/db/pool";
import { seedDemoData } from "@/lib/seed/demo";
import * as ping from "@/app/v1/ping/route";
import * as contracts from "@/app/v1/contracts/route";
import * as contract from "@/app/v1/contracts/[contract_id]/route";
import * as dataFields from "@/app/v1/contracts/[contract_id]/data_fields/route";
import * as templateTypes from "@/app/v1/template_types/route";
import * as participant from "@/app/v1/contracts/[contract_id]/parties/[party_id]/participants/[participant_id]/route";
import { answerFloorRequest, type Queryable } from "@/bench/floor-sql";
import { BENCH_API_TOKEN, BENCH_USER_EMAIL } from "@/bench/config";
import { FLOOR_SCENARIOS, scenarios, type Targets } from "@/bench/scenarios";
import type { RequestSpec } from "@/bench/load";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

const ORIGIN = "http://bench-compare.example:8080";
let db: TestDatabase;
let pool: Queryable;
let targets: Targets;

beforeAll(async () => {
  db = await createTestDatabase();
  state.prisma = db.prisma;
  pool = poolOf(db.prisma);
  await seedDemoData(db.prisma, { apiToken: BENCH_API_TOKEN });
  const q = (text: string, values: unknown[] = []) => pool.query({ text, values }).then((r) => r.rows);
  const [put] = await q(`SELECT c.id AS contract_id, p.id AS party_id, x.id AS participant_id
      FROM contracts c JOIN parties p ON p.contract_id = c.id AND NOT p.my_party JOIN participants x ON x.party_id = p.id
     WHERE c.state = 'draft' ORDER BY x.id LIMIT 1`);
  const ids = { contractId: put!.contract_id as number, partyId: put!.party_id as number, participantId: put!.participant_id as number };
  // Every nullable field of the answers filled on the PUT's participant and its contract.
  await q(
    `UPDATE participants SET sign_order = 2, delegated_to_id = (SELECT min(id) FROM participants), two_step_locked_at = now(),
            delivery_failed_at = now(), delivery_failure = 'mailbox "full" – ö', reminders_sent = 3, last_reminded_at = now(),
            invited_at = now(), delegated_at = now(), first_visited_at = now(), last_visited_at = now(), sign_state_updated_at = now(), visits = 4
      WHERE id = $1`,
    [ids.participantId],
  );
  await q(`UPDATE contracts SET signing_order = 'ordered', delegation_allowed = false, published_at = now(), signing_period_expires_at = now() WHERE id = $1`, [ids.contractId]);
  const create = (await q(`SELECT workspace_id, template_id FROM contracts LIMIT 1`))[0]!;
  const others = (await q(`SELECT id FROM contracts WHERE id <> $1 ORDER BY id LIMIT 2`, [ids.contractId])).map((r) => r.id as number);
  targets = {
    contractIds: [ids.contractId, ...others],
    participants: [ids],
    create: { workspaceId: create.workspace_id as number, templateId: create.template_id as number },
  };
}, 180_000);
afterAll(() => db?.cleanup());

interface Answer {
  status: number;
  text: string;
  etag: string | null;
}

const HEADERS = { host: new URL(ORIGIN).host, "x-service-api-token": BENCH_API_TOKEN, "x-service-user-email": BENCH_USER_EMAIL };

/** The app's route handler for the bench's path, and the path's parameters. */
function route(spec: RequestSpec): { handler: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>; params: Record<string, string> } {
  const path = new URL(spec.path, ORIGIN).pathname;
  let m: RegExpExecArray | null;
  if (path === "/v1/ping") return { handler: ping.GET, params: {} };
  if (path === "/v1/contracts") return { handler: contracts.GET, params: {} };
  if (path === "/v1/template_types") return { handler: templateTypes.GET, params: {} };
  if ((m = /^\/v1\/contracts\/(\d+)$/.exec(path))) return { handler: contract.GET, params: { contract_id: m[1]! } };
  if ((m = /^\/v1\/contracts\/(\d+)\/data_fields$/.exec(path))) return { handler: dataFields.GET, params: { contract_id: m[1]! } };
  if ((m = /^\/v1\/contracts\/(\d+)\/parties\/(\d+)\/participants\/(\d+)$/.exec(path)) && spec.method === "PUT") {
    return { handler: participant.PUT, params: { contract_id: m[1]!, party_id: m[2]!, participant_id: m[3]! } };
  }
  throw new Error(`no route for ${spec.method} ${spec.path}`);
}

async function app(spec: RequestSpec): Promise<Answer> {
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  const { handler, params } = route(spec);
  const req = new Request(`${ORIGIN}${spec.path}`, {
    method: spec.method,
    headers: { ...HEADERS, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body,
  });
  const res = await handler(req, { params: Promise.resolve(params) });
  return { status: res.status, text: await res.text(), etag: res.headers.get("etag") };
}

async function floor(spec: RequestSpec): Promise<Answer> {
  const url = new URL(spec.path, ORIGIN);
  const answer = await answerFloorRequest(
    pool,
    {
      method: spec.method,
      pathname: url.pathname,
      searchParams: url.searchParams,
      token: BENCH_API_TOKEN,
      email: BENCH_USER_EMAIL,
      contentType: spec.body === undefined ? null : "application/json",
      origin: ORIGIN,
      readBody: async () => JSON.stringify(spec.body),
    },
    { prepared: false },
  );
  return { status: answer.status, text: answer.body, etag: answer.etag ?? null };
}

/** The answer as compact JSON in its own key order (the app's lists are written in two parts). */
const normal = (text: string) => JSON.stringify(JSON.parse(text));

describe("the bench's floor answers what the app answers", () => {
  const reads = (): RequestSpec[] => [
    ...scenarios(targets).filter((s) => FLOOR_SCENARIOS.has(s.id) && s.kind !== "update").flatMap((s) => [0, 1, 2].map((i) => s.make(i))),
    // The bench's lists are past the end of this data set; these have items.
    { method: "GET", path: "/v1/template_types?limit=100&offset=0" },
    { method: "GET", path: "/v1/contracts?limit=7&offset=3" },
  ];

  it("for every read of the bench", async () => {
    for (const spec of reads()) {
      const [a, f] = [await app(spec), await floor(spec)];
      expect(a.status, `${spec.path}: ${a.text.slice(0, 300)}`).toBe(200);
      expect(f.status, spec.path).toBe(200);
      expect(normal(f.text), spec.path).toBe(normal(a.text));
    }
  });

  it("for the PUT, and writes the same audit event", async () => {
    const put = scenarios(targets).find((s) => s.id === "participant-put")!;
    const spec = put.make(0);
    const audit = async () =>
      (
        await pool.query({
          text: `SELECT to_jsonb(a) - 'id' - 'created_at' - 'request_id' - 'before' - 'after' - 'chain_seq' - 'chain_hash' AS row, before, after
                   FROM audit_events a WHERE entity_type = 'participant' ORDER BY id DESC LIMIT 1`,
          values: [],
        })
      ).rows[0]!;
    const masked = (text: string) => {
      const body = JSON.parse(text) as { title: string; _private_ownerside: Record<string, unknown> };
      return JSON.stringify({ ...body, title: "(sent)", _private_ownerside: { ...body._private_ownerside, updated_time: "(masked)" } });
    };
    const byApp = await app({ ...spec, body: { title: "By the app" } });
    const appAudit = await audit();
    const byFloor = await floor({ ...spec, body: { title: "By the floor" } });
    const floorAudit = await audit();
    expect(byApp.status, byApp.text).toBe(200);
    expect(byFloor.status, byFloor.text).toBe(200);
    expect(JSON.parse(byFloor.text).title).toBe("By the floor");
    expect(masked(byFloor.text)).toBe(masked(byApp.text));
    // Each names the version it wrote: the floor's one more than the app's.
    const version = (etag: string | null) => Number(/-v(\d+)"$/.exec(etag ?? "")?.[1]);
    expect(version(byFloor.etag)).toBe(version(byApp.etag) + 1);
    expect(floorAudit.row).toEqual(appAudit.row);
    expect(floorAudit.before).toEqual({ title: "By the app" });
    expect(floorAudit.after).toEqual({ title: "By the floor" });
  });
});
