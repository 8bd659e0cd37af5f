// The floor: the least a server can do to answer the benchmark's requests. A bare `node:http`
// server with a `pg` Pool that runs the same SQL as the app for the same answers (auth lookup by
// token hash, user by e-mail with memberships; the page, its count and the page's parties; the
// contract with its parties and participants; …) and serializes JSON of the same shape, with no
// framework, no ORM, no validation library. The app's throughput is reported as a ratio of this.
//
// Run by bench/run.ts as its own process: FLOOR_DATABASE_URL=postgresql://… FLOOR_PORT=… tsx bench/floor.ts
import { createHash } from "node:crypto";
import http from "node:http";
import { pathToFileURL } from "node:url";
import pg from "pg";

const PAGE_MAX = 100;
const MAX_OFFSET = 19_900;

type Row = Record<string, unknown>;

interface Actor {
  isAdmin: boolean;
  userId: number | null;
  /** Visible workspaces; null = all. */
  workspaceIds: number[] | null;
  editable: Set<number> | null;
  apiTokenId: number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const iso = (d: unknown) => (d instanceof Date ? `${d.toISOString().slice(0, -1)}+00:00` : null);

export function createFloor(databaseUrl: string, poolSize = 10): { server: http.Server; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // The driver returns bigint counts as strings; they fit in a number.
  const q = <T extends Row = Row>(text: string, values?: unknown[]) => pool.query<T>(text, values);

  async function authenticate(req: http.IncomingMessage): Promise<Actor> {
    const token = req.headers["x-service-api-token"];
    if (typeof token !== "string" || token.length < 16 || token.length > 512) throw new HttpError(401, "invalid token");
    const hash = createHash("sha256").update(token, "utf8").digest("hex");
    const { rows } = await q(`SELECT id, token_hash, revoked_at, last_used_at FROM api_tokens WHERE token_hash = $1 LIMIT 1`, [hash]);
    const tok = rows[0];
    if (!tok || tok.revoked_at !== null) throw new HttpError(401, "invalid token");
    const lastUsed = tok.last_used_at as Date | null;
    if (!lastUsed || lastUsed.getTime() < Date.now() - 60_000) {
      await q(`UPDATE api_tokens SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)`, [
        tok.id,
        new Date(Date.now() - 60_000),
      ]);
    }
    const email = req.headers["x-service-user-email"];
    if (email === undefined) return { isAdmin: true, userId: null, workspaceIds: null, editable: null, apiTokenId: tok.id as number };
    if (typeof email !== "string" || email === "" || email.length > 320) throw new HttpError(401, "unknown user");
    // The app's lookup (lib/api/auth.ts loadUserActor): e-mails are stored lower-case, so the trimmed,
    // lower-cased header is matched exactly on the unique index, never as a pattern.
    const users = await q(`SELECT id, email, name, is_admin FROM users WHERE active = true AND email = $1 LIMIT 1`, [email.trim().toLowerCase()]);
    const user = users.rows[0];
    if (!user) throw new HttpError(401, "unknown user");
    const memberships = await q(`SELECT user_id, workspace_id, role FROM workspace_memberships WHERE user_id = ANY($1)`, [[user.id]]);
    const isAdmin = user.is_admin as boolean;
    return {
      isAdmin,
      userId: user.id as number,
      workspaceIds: isAdmin ? null : memberships.rows.map((m) => m.workspace_id as number),
      editable: isAdmin ? null : new Set(memberships.rows.filter((m) => m.role === "editor").map((m) => m.workspace_id as number)),
      apiTokenId: tok.id as number,
    };
  }

  /** `AND workspace_id = ANY($n)` for non-admins. */
  function scope(actor: Actor, values: unknown[], column = "workspace_id"): string {
    if (actor.workspaceIds === null) return "";
    values.push(actor.workspaceIds);
    return ` AND ${column} = ANY($${values.length})`;
  }

  function pagination(url: URL, allowAll = false): { limit: number | "all"; offset: number } {
    const rawLimit = url.searchParams.get("limit") ?? "100";
    const rawOffset = url.searchParams.get("offset") ?? "0";
    const limit = allowAll && rawLimit === "all" ? "all" : Number(rawLimit);
    const offset = Number(rawOffset);
    if (limit !== "all" && (!Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX)) throw new HttpError(400, "bad limit");
    if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET) throw new HttpError(400, "bad offset");
    return { limit, offset };
  }

  function envelope(origin: string, path: string, limit: number | "all", offset: number, count: number, data: unknown[]) {
    const href = (o: number) => `${origin}${path}?limit=${limit}&offset=${o}`;
    const next = limit !== "all" && offset + limit < count && offset + limit <= MAX_OFFSET ? href(offset + limit) : null;
    const previous = limit !== "all" && offset > 0 ? href(Math.max(0, offset - limit)) : null;
    return { count, data, _links: { self: { href: href(offset) }, next: { href: next }, previous: { href: previous } } };
  }

  const CONTRACT_COLUMNS = `id, name, state::text AS state, workspace_id, template_id, created_at, updated_at`;
  const PARTY_COLUMNS = `id, contract_id, type::text AS type, name, country_code, identification_number, my_party, created_at, updated_at`;
  const PARTICIPANT_COLUMNS = `id, party_id, user_id, name, title, email, phone_number, identification_number,
    delivery_channel::text AS delivery_channel, delivery_status::text AS delivery_status, sign_method::text AS sign_method,
    sign_state::text AS sign_state, sign_state_updated_at, signatory, two_step_authentication_method::text AS two_step_authentication_method,
    organizer, can_update_contract, visits, first_visited_at, last_visited_at, version, created_at, updated_at`;

  function contractFields(c: Row, origin: string) {
    const self = `${origin}/v1/contracts/${c.id}`;
    return {
      id: c.id,
      name: c.name,
      state: c.state,
      workspace_id: c.workspace_id,
      template_id: c.template_id,
      created_time: iso(c.created_at),
      updated_time: iso(c.updated_at),
      _links: { self: { href: self }, parties: { href: `${self}/parties` }, data_fields: { href: `${self}/data_fields` } },
    };
  }

  function partyFields(p: Row) {
    return {
      id: p.id,
      name: p.name,
      country_code: p.country_code,
      identification_number: p.identification_number,
      my_party: p.my_party,
      _private_ownerside: { created_time: iso(p.created_at), updated_time: iso(p.updated_at) },
    };
  }

  function participant(p: Row, actor: Actor, links?: { origin: string; contractId: number; partyId: number }) {
    return {
      id: p.id,
      name: p.name,
      title: p.title,
      email: p.email,
      phone_number: p.phone_number,
      identification_number: p.identification_number,
      delivery_channel: p.delivery_channel,
      delivery_status: p.delivery_status,
      sign_method: p.sign_method,
      sign_state: p.sign_state,
      sign_state_updated_time: iso(p.sign_state_updated_at),
      signatory: p.signatory,
      two_step_authentication_method: p.two_step_authentication_method,
      organizer: p.organizer,
      my_participant: actor.userId !== null && p.user_id === actor.userId,
      _permissions: { "contract:update": p.can_update_contract },
      _private_ownerside: {
        created_time: iso(p.created_at),
        first_visited_time: iso(p.first_visited_at),
        last_visited_time: iso(p.last_visited_at),
        updated_time: iso(p.updated_at),
        visits: p.visits,
      },
      ...(links
        ? {
            _links: {
              contract: { href: `${links.origin}/v1/contracts/${links.contractId}` },
              party: { href: `${links.origin}/v1/contracts/${links.contractId}/parties/${links.partyId}` },
              self: { href: `${links.origin}/v1/contracts/${links.contractId}/parties/${links.partyId}/participants/${p.id}` },
            },
          }
        : {}),
    };
  }

  async function visibleContract(actor: Actor, id: number): Promise<Row> {
    const values: unknown[] = [id];
    const { rows } = await q(`SELECT ${CONTRACT_COLUMNS} FROM contracts WHERE id = $1${scope(actor, values)} LIMIT 1`, values);
    if (!rows[0]) throw new HttpError(404, "no such contract");
    return rows[0];
  }

  function parseId(raw: string | undefined): number {
    const id = Number(raw);
    if (!raw || !/^\d+$/.test(raw) || id < 1 || id > 2_147_483_647) throw new HttpError(400, "bad id");
    return id;
  }

  // GET /v1/contracts: the page, its count and the page's parties (a summary, without people).
  async function listContracts(actor: Actor, url: URL, origin: string) {
    const { limit, offset } = pagination(url);
    const values: unknown[] = [];
    const where = `WHERE TRUE${scope(actor, values)}`;
    const [page, count] = await Promise.all([
      q(`SELECT ${CONTRACT_COLUMNS} FROM contracts ${where} ORDER BY id ASC LIMIT ${limit} OFFSET ${offset}`, values),
      q<{ n: string }>(`SELECT count(*) AS n FROM contracts ${where}`, values),
    ]);
    const ids = page.rows.map((c) => c.id);
    const parties = ids.length
      ? await q(`SELECT ${PARTY_COLUMNS} FROM parties WHERE contract_id = ANY($1) ORDER BY id ASC`, [ids])
      : { rows: [] as Row[] };
    const byContract = new Map<unknown, Row[]>();
    for (const p of parties.rows) {
      const list = byContract.get(p.contract_id);
      if (list) list.push(p);
      else byContract.set(p.contract_id, [p]);
    }
    const data = page.rows.map((c) => ({
      ...contractFields(c, origin),
      parties: (byContract.get(c.id) ?? []).map((p) => ({ ...partyFields(p), type: p.type })),
    }));
    return envelope(origin, "/v1/contracts", limit, offset, Number(count.rows[0]!.n), data);
  }

  // GET /v1/contracts/{id}: the contract with its parties and their participants.
  async function getContract(actor: Actor, id: number, origin: string) {
    const contract = await visibleContract(actor, id);
    const parties = await q(`SELECT ${PARTY_COLUMNS} FROM parties WHERE contract_id = $1 ORDER BY id ASC`, [id]);
    const partyIds = parties.rows.map((p) => p.id);
    const people = partyIds.length
      ? await q(`SELECT ${PARTICIPANT_COLUMNS} FROM participants WHERE party_id = ANY($1) ORDER BY id ASC`, [partyIds])
      : { rows: [] as Row[] };
    return {
      ...contractFields(contract, origin),
      parties: parties.rows.map((p) => {
        const list = people.rows.filter((x) => x.party_id === p.id).map((x) => participant(x, actor));
        return p.type === "company"
          ? { ...partyFields(p), type: "company", participants: list }
          : { ...partyFields(p), type: "individual", participant: list[0] };
      }),
    };
  }

  // GET /v1/template_types: a page and its count.
  async function listTemplateTypes(url: URL, origin: string) {
    const { limit, offset } = pagination(url);
    const [page, count] = await Promise.all([
      q(`SELECT id, name, description, extension_type, created_at, updated_at FROM template_types ORDER BY id ASC LIMIT ${limit} OFFSET ${offset}`),
      q<{ n: string }>(`SELECT count(*) AS n FROM template_types`),
    ]);
    const data = page.rows.map((t) => ({
      id: t.id,
      name: t.name,
      description: t.description,
      extension_type: t.extension_type,
      created_time: iso(t.created_at),
      updated_time: iso(t.updated_at),
      _links: { self: { href: `${origin}/v1/template_types/${t.id}` } },
    }));
    return envelope(origin, "/v1/template_types", limit, offset, Number(count.rows[0]!.n), data);
  }

  // GET /v1/contracts/{id}/data_fields: the contract's visibility, then its data fields.
  async function listDataFields(actor: Actor, id: number, url: URL, origin: string) {
    const { limit, offset } = pagination(url, true);
    await visibleContract(actor, id);
    const [page, count] = await Promise.all([
      q(
        `SELECT id, contract_id, name, description, placeholder, value, custom_id, created_at, updated_at
           FROM contract_data_fields WHERE contract_id = $1 ORDER BY id ASC ${limit === "all" ? "" : `LIMIT ${limit}`} OFFSET ${offset}`,
        [id],
      ),
      q<{ n: string }>(`SELECT count(*) AS n FROM contract_data_fields WHERE contract_id = $1`, [id]),
    ]);
    const path = `/v1/contracts/${id}/data_fields`;
    const data = page.rows.map((f) => ({
      id: f.id,
      name: f.name,
      description: f.description,
      placeholder: f.placeholder,
      value: f.value,
      custom_id: f.custom_id,
      _private_ownerside: { created_time: iso(f.created_at), updated_time: iso(f.updated_at) },
      _links: { self: { href: `${origin}${path}/${f.id}` }, contract: { href: `${origin}/v1/contracts/${id}` } },
    }));
    return envelope(origin, path, limit, offset, Number(count.rows[0]!.n), data);
  }

  // PUT …/participants/{id} with a title, the statements the app's update sends, in one
  // transaction: lock the row, find what the path names (visible, editable), read the template's
  // options the participant rules check against, update the participant, touch its party, write the
  // audit event; answer the participant.
  async function updateParticipant(actor: Actor, contractId: number, partyId: number, participantId: number, body: unknown, origin: string) {
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw new HttpError(400, "body must be an object");
    const title = (body as { title?: unknown }).title;
    if (Object.keys(body).some((k) => k !== "title") || (title !== undefined && (typeof title !== "string" || title.length > 100))) {
      throw new HttpError(400, "only a title (≤ 100 characters) is supported here");
    }
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(`SELECT id FROM participants WHERE id = $1 AND party_id = $2 FOR UPDATE`, [participantId, partyId]);
      const values: unknown[] = [contractId];
      const contract = (
        await client.query(`SELECT ${CONTRACT_COLUMNS} FROM contracts WHERE id = $1${scope(actor, values)} LIMIT 1`, values)
      ).rows[0];
      if (!contract) throw new HttpError(404, "no such contract");
      const party = (await client.query(`SELECT ${PARTY_COLUMNS} FROM parties WHERE id = $1 AND contract_id = $2 LIMIT 1`, [partyId, contractId])).rows[0];
      if (!party) throw new HttpError(404, "no such party");
      const before = (await client.query(`SELECT ${PARTICIPANT_COLUMNS} FROM participants WHERE id = $1 AND party_id = $2 LIMIT 1`, [participantId, partyId])).rows[0];
      if (!before) throw new HttpError(404, "no such participant");
      if (actor.editable !== null && !actor.editable.has(contract.workspace_id as number)) throw new HttpError(403, "viewer");
      if (contract.state !== "draft" && contract.state !== "pending") throw new HttpError(409, "not editable");
      const template = (await client.query(`SELECT id FROM templates WHERE id = $1 LIMIT 1`, [contract.template_id])).rows[0];
      const [channels, methods, twoStep] = template
        ? await Promise.all([
            client.query(`SELECT template_id, name::text, preferred, required_participant_attributes::text[] FROM template_delivery_channels WHERE template_id = $1 ORDER BY position, name`, [template.id]),
            client.query(`SELECT template_id, name::text, preferred FROM template_sign_methods WHERE template_id = $1 ORDER BY position, name`, [template.id]),
            client.query(`SELECT template_id, name::text, preferred, required_participant_attributes::text[] FROM template_two_step_methods WHERE template_id = $1 ORDER BY position, name`, [template.id]),
          ])
        : [{ rows: [] }, { rows: [] }, { rows: [] }];
      // The one rule a title change could break: the participant's options must still be offered.
      const offered = (rows: Row[], value: unknown) => rows.some((r) => r.name === value);
      if (!offered(channels.rows, before.delivery_channel) || !offered(methods.rows, before.sign_method) || !offered(twoStep.rows, before.two_step_authentication_method)) {
        throw new HttpError(400, "option not offered");
      }
      let after = before;
      if (title !== undefined && title !== before.title) {
        const now = new Date();
        after = (
          await client.query(
            `UPDATE participants SET title = $1, version = version + 1, updated_at = $2 WHERE id = $3 RETURNING ${PARTICIPANT_COLUMNS}`,
            [title, now, participantId],
          )
        ).rows[0]!;
        await client.query(`UPDATE parties SET updated_at = $1 WHERE id = $2 RETURNING ${PARTY_COLUMNS}`, [now, partyId]);
        await client.query(
          `INSERT INTO audit_events (action, entity_type, entity_id, contract_id, actor_user_id, api_token_id, via, before, after)
           VALUES ('participant.update', 'participant', $1, $2, $3, $4, 'api_token', $5, $6) RETURNING id`,
          [participantId, contractId, actor.userId, actor.apiTokenId, JSON.stringify({ title: before.title }), JSON.stringify({ title })],
        );
      }
      await client.query("COMMIT");
      return participant(after, actor, { origin, contractId, partyId });
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async function readBody(req: http.IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      return JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      throw new HttpError(400, "malformed JSON");
    }
  }

  async function route(req: http.IncomingMessage): Promise<unknown> {
    const origin = `http://${req.headers.host ?? "localhost"}`;
    const url = new URL(req.url ?? "/", origin);
    const parts = url.pathname.split("/").filter(Boolean);
    if (parts[0] !== "v1") throw new HttpError(404, "not found");
    // Readiness, and the app's cheapest route (one query, no auth) to compare with.
    if (parts[1] === "ping" && parts.length === 2) {
      await q("SELECT 1");
      return { status: "ok" };
    }
    const actor = await authenticate(req);
    if (req.method === "GET") {
      if (parts[1] === "contracts" && parts.length === 2) return listContracts(actor, url, origin);
      if (parts[1] === "contracts" && parts.length === 3) return getContract(actor, parseId(parts[2]), origin);
      if (parts[1] === "contracts" && parts.length === 4 && parts[3] === "data_fields") return listDataFields(actor, parseId(parts[2]), url, origin);
      if (parts[1] === "template_types" && parts.length === 2) return listTemplateTypes(url, origin);
    }
    if (req.method === "PUT" && parts[1] === "contracts" && parts.length === 7 && parts[3] === "parties" && parts[5] === "participants") {
      if (!String(req.headers["content-type"] ?? "").startsWith("application/json")) throw new HttpError(415, "JSON only");
      return updateParticipant(actor, parseId(parts[2]), parseId(parts[4]), parseId(parts[6]), await readBody(req), origin);
    }
    throw new HttpError(404, "not found");
  }

  const server = http.createServer((req, res) => {
    route(req).then(
      (body) => {
        const json = JSON.stringify(body);
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store", "content-length": Buffer.byteLength(json) });
        res.end(json);
      },
      (error: unknown) => {
        const status = error instanceof HttpError ? error.status : 500;
        if (status === 500) console.error(error);
        const json = JSON.stringify({ status, detail: error instanceof Error ? error.message : String(error) });
        res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
        res.end(json);
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  return { server, pool };
}

// Run as a program (the benchmark starts it in its own process).
const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const url = process.env.FLOOR_DATABASE_URL;
  const port = Number(process.env.FLOOR_PORT ?? 0);
  if (!url) throw new Error("FLOOR_DATABASE_URL is required");
  const { server, pool } = createFloor(url, Number(process.env.FLOOR_POOL_SIZE ?? 10));
  server.listen(port, "127.0.0.1", () => console.log(`floor listening on ${JSON.stringify(server.address())}`));
  const shutdown = () => {
    server.close(() => void pool.end().then(() => process.exit(0)));
    server.closeAllConnections();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}
