// The scenarios of the issue, and the ids they rotate through (read from the data set, so every
// request names a row that exists and is allowed: draft contracts for the PUT, and so on).
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { RequestSpec, Scenario } from "./load";

export interface Targets {
  /** Contracts spread over the whole id range (detail, data fields). */
  contractIds: number[];
  /** Counterparty participants of draft contracts (the PUT rotates through them). */
  participants: { contractId: number; partyId: number; participantId: number }[];
  /** Where POST /v1/contracts/create makes its contracts. */
  create: { workspaceId: number; templateId: number };
}

const ROTATION = 2_000;

/** Reads the rotation targets; `maxContractId` keeps rows a run adds out of the rotation. */
export async function loadTargets(databaseUrl: string, maxContractId: number): Promise<Targets> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const contracts = await client.query<{ id: number }>(
      `SELECT id FROM contracts WHERE id <= $1 ORDER BY hashint4(id), id LIMIT ${ROTATION}`,
      [maxContractId],
    );
    const participants = await client.query<{ contract_id: number; party_id: number; participant_id: number }>(
      `SELECT c.id AS contract_id, p.id AS party_id, q.id AS participant_id
         FROM contracts c
         JOIN parties p ON p.contract_id = c.id AND NOT p.my_party
         JOIN participants q ON q.party_id = p.id
        WHERE c.state = 'draft' AND c.id <= $1
        ORDER BY hashint4(q.id), q.id
        LIMIT ${ROTATION}`,
      [maxContractId],
    );
    const create = await client.query<{ workspace_id: number; template_id: number }>(
      `SELECT w.id AS workspace_id, t.id AS template_id
         FROM workspaces w JOIN template_workspaces tw ON tw.workspace_id = w.id JOIN templates t ON t.id = tw.template_id
        WHERE w.name = 'Sales' AND t.name = 'Mutual NDA' LIMIT 1`,
    );
    if (!contracts.rows.length || !participants.rows.length || !create.rows[0]) throw new Error("the data set has no rotation targets");
    return {
      contractIds: contracts.rows.map((r) => r.id),
      participants: participants.rows.map((r) => ({ contractId: r.contract_id, partyId: r.party_id, participantId: r.participant_id })),
      create: { workspaceId: create.rows[0].workspace_id, templateId: create.rows[0].template_id },
    };
  } finally {
    await client.end();
  }
}

const TITLES = ["Bench title A", "Bench title B"];

export function scenarios(t: Targets): Scenario[] {
  const at = <T>(list: T[], i: number) => list[i % list.length]!;
  return [
    {
      // Not one of the scenarios: the cheapest route (no auth, `SELECT 1`), so the report
      // shows what a request costs the framework before any real work.
      id: "ping",
      title: "GET /v1/ping (baseline: no auth, SELECT 1)",
      kind: "baseline",
      make: () => ({ method: "GET", path: "/v1/ping" }),
    },
    {
      id: "contracts-offset-0",
      title: "GET /v1/contracts?limit=100 (offset 0)",
      kind: "list",
      make: () => ({ method: "GET", path: "/v1/contracts?limit=100&offset=0" }),
    },
    {
      id: "contracts-offset-19900",
      title: "GET /v1/contracts?limit=100&offset=19900",
      kind: "list",
      make: () => ({ method: "GET", path: "/v1/contracts?limit=100&offset=19900" }),
    },
    {
      id: "contract-detail",
      title: "GET /v1/contracts/{id}",
      kind: "detail",
      make: (i) => ({ method: "GET", path: `/v1/contracts/${at(t.contractIds, i)}` }),
    },
    {
      id: "template-types-offset-19900",
      title: "GET /v1/template_types?offset=19900",
      kind: "list",
      make: () => ({ method: "GET", path: "/v1/template_types?offset=19900" }),
    },
    {
      id: "data-fields-all",
      title: "GET /v1/contracts/{id}/data_fields?limit=all",
      kind: "list",
      make: (i) => ({ method: "GET", path: `/v1/contracts/${at(t.contractIds, i)}/data_fields?limit=all` }),
    },
    {
      id: "participant-put",
      title: "PUT /v1/contracts/{id}/parties/{id}/participants/{id}",
      kind: "update",
      make: (i) => {
        const p = at(t.participants, i);
        // A title no participant has yet (the clock is in it), so every request is a real change
        // (an unchanged value writes nothing), in this run and the next, for the app and the floor.
        const title = `${TITLES[i % 2]} ${Date.now().toString(36)}`;
        return { method: "PUT", path: `/v1/contracts/${p.contractId}/parties/${p.partyId}/participants/${p.participantId}`, body: { title } };
      },
    },
    {
      id: "contract-create",
      title: "POST /v1/contracts/create",
      kind: "create",
      make: (i) => ({
        method: "POST",
        path: "/v1/contracts/create",
        body: {
          workspace_id: t.create.workspaceId,
          template_id: t.create.templateId,
          name: `Bench contract ${i}`,
          parties: [
            {
              type: "company",
              name: "Bench Counterparty AB",
              country_code: "SE",
              identification_number: "556677-8899",
              participants: [
                { name: "Jane Doe", email: "jane.doe@example.org", title: "CFO" },
                { name: "John Roe", email: "john.roe@example.org", signatory: false, _permissions: { "contract:update": false } },
              ],
            },
            { type: "individual", participant: { name: "Ivy Individual", email: "ivy@example.org", identification_number: "19800101-1234" } },
          ],
        },
      }),
    },
  ];
}

/** The scenarios the floor and the reference route answer too (every one but creation). */
export const FLOOR_SCENARIOS = new Set(["ping", "contracts-offset-0", "contracts-offset-19900", "contract-detail", "template-types-offset-19900", "data-fields-all", "participant-put"]);

/** Run again with the per-token rate limit on (a limit that never refuses), each sample just before one of the app as configured for the rest (limit off). */
export const RATE_LIMIT_SCENARIOS = ["contract-detail", "participant-put"];
/** A limit per minute high enough never to refuse. */
export const NEVER_REFUSING_RATE_LIMIT = 1_000_000_000;

/**
 * Hostile input, for memory: every request is refused, each differently — a distinct invalid API
 * token every time, an unknown user, random ids that do not exist (404s), long query strings with
 * random names and values, malformed JSON bodies for the PUT. Whatever the app keeps per distinct
 * input (caches, maps, prepared statements) would show here as growth.
 */
export function hostileScenario(t: Targets): Scenario {
  const rand = (bytes: number) => randomBytes(bytes).toString("hex");
  const at = <T>(list: T[], i: number) => list[i % list.length]!;
  return {
    id: "hostile",
    title: "hostile input (distinct invalid tokens, unknown users and ids, long query strings, malformed JSON)",
    kind: "hostile",
    expectErrors: true,
    make: (i): RequestSpec => {
      switch (i % 5) {
        case 0:
          return { method: "GET", path: `/v1/contracts/${at(t.contractIds, i)}`, headers: { "x-service-api-token": `hostile-${rand(24)}` } };
        case 1:
          return { method: "GET", path: `/v1/contracts/${at(t.contractIds, i)}`, headers: { "x-service-user-email": `nobody-${rand(8)}@example.org` } };
        case 2:
          return { method: "GET", path: `/v1/contracts/${2_000_000 + (randomBytes(4).readUInt32BE() % 1_000_000_000)}` };
        case 3: {
          const junk = Array.from({ length: 24 }, () => `${rand(6)}=${rand(60)}`).join("&");
          return { method: "GET", path: `/v1/contracts?limit=100&offset=${randomBytes(2).readUInt16BE()}&q=${rand(80)}&${junk}` };
        }
        default: {
          const p = at(t.participants, i);
          return {
            method: "PUT",
            path: `/v1/contracts/${p.contractId}/parties/${p.partyId}/participants/${p.participantId}`,
            rawBody: `{"title": "${rand(16)}", "${rand(8)}": [${rand(200)}`,
          };
        }
      }
    },
  };
}
