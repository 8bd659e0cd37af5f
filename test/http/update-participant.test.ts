import { beforeAll, describe, expect, inject, it } from "vitest";
import { ERROR_CODES, type TErrorKey } from "@/lib/domain/error-codes";
import { createContract, createTemplate } from "@/lib/db/seed/factories";
import type { TContractState } from "@/lib/domain/enums";
import { ZApiErrorSchema, ZParticipantSchema } from "@/lib/schemas";
import { api, baseUrl, seededWorkspaces, serverDb } from "@/test/helpers/http";

const EDITOR = "editor@example.com";

let ws: { sales: number; legal: number; procurement: number };
let templateId: number;
let editorUser: { id: number; name: string; email: string };

beforeAll(async () => {
  const db = serverDb();
  ws = await seededWorkspaces();
  editorUser = await db.user.findUniqueOrThrow({ where: { email: EDITOR } });
  const template = await createTemplate(db, {
    workspaceIds: [ws.sales, ws.legal, ws.procurement],
    deliveryChannels: ["email", "sms"],
    signMethods: ["standard_esign", "swedish_bankid"],
    twoStepMethods: ["none", "email"],
  });
  templateId = template.id;
});

/** A contract of its own (owner side: the editor; a company of two; an individual) and its paths. */
async function contract(options: { workspaceId?: number; state?: TContractState } = {}) {
  const db = serverDb();
  const row = await createContract(db, {
    workspaceId: options.workspaceId ?? ws.sales,
    templateId,
    state: options.state,
    owner: editorUser,
    counterparties: [
      { type: "company", name: "Buyer AB", participants: [{ name: "Ann", email: "ann@example.org" }, { name: "Bo", signatory: false }] },
      { type: "individual", participant: { name: "Cecilia", identificationNumber: "19800101-1234" } },
    ],
  });
  const parties = await db.party.findMany({ where: { contractId: row.id }, include: { participants: { orderBy: { id: "asc" } } }, orderBy: { id: "asc" } });
  const path = (partyIndex: number, participantIndex = 0) => {
    const party = parties[partyIndex]!;
    return `/v1/contracts/${row.id}/parties/${party.id}/participants/${party.participants[participantIndex]!.id}`;
  };
  return { id: row.id, parties, organizer: path(0), ann: path(1, 0), bo: path(1, 1), cecilia: path(2) };
}

function put(path: string, body: unknown, options: { email?: string; headers?: Record<string, string>; token?: string | null } = {}) {
  return api(path, { method: "PUT", body, email: options.email ?? EDITOR, headers: options.headers, token: options.token });
}

/** The response is the error shape with this code (and its status). */
function expectError(res: { status: number; json: unknown }, key: TErrorKey) {
  const { status, code } = ERROR_CODES[key];
  expect({ status: res.status, code: (res.json as { error_code?: number })?.error_code }).toEqual({ status, code });
  return ZApiErrorSchema.parse(res.json);
}

describe("PUT a participant: success", () => {
  it("answers 200 with the updated participant, its _links and a new ETag", async () => {
    const c = await contract();
    const before = await api(c.ann, { email: EDITOR });
    expect(before.status).toBe(200);
    const res = await put(c.ann, { title: "CFO", phone_number: " +46701234567 ", signatory: true, _permissions: { "contract:update": true } });
    expect(res.status).toBe(200);
    const body = ZParticipantSchema.parse(res.json);
    expect(body).toMatchObject({ title: "CFO", phone_number: "+46701234567", signatory: true, my_participant: false });
    expect(body._links).toEqual({
      contract: { href: `${baseUrl()}/v1/contracts/${c.id}` },
      party: { href: `${baseUrl()}/v1/contracts/${c.id}/parties/${c.parties[1]!.id}` },
      self: { href: `${baseUrl()}${c.ann}` },
    });
    expect(res.headers.get("etag")).toBeTruthy();
    expect(res.headers.get("etag")).not.toBe(before.headers.get("etag"));
    expect(Date.parse(body._private_ownerside.updated_time)).toBeGreaterThan(Date.parse(before.json._private_ownerside.updated_time));
    // GET agrees with what PUT answered.
    const after = await api(c.ann, { email: EDITOR });
    expect(after.json).toEqual(res.json);
    expect(after.headers.get("etag")).toBe(res.headers.get("etag"));
  });

  it("answers {} with the unchanged participant, updated_time and ETag", async () => {
    const c = await contract();
    const before = await api(c.bo, { email: EDITOR });
    const res = await put(c.bo, {});
    expect(res.status).toBe(200);
    expect(res.json).toEqual(before.json);
    expect(res.headers.get("etag")).toBe(before.headers.get("etag"));
  });

  it("marks the caller's own participant, whose other attributes may change", async () => {
    const c = await contract();
    const res = await put(c.organizer, { title: "Lead", email: EDITOR });
    expect(res.status).toBe(200);
    expect(ZParticipantSchema.parse(res.json)).toMatchObject({ my_participant: true, organizer: true, title: "Lead", email: EDITOR });
  });

  it("keeps an individual party's name equal to its participant's", async () => {
    const c = await contract();
    expect((await put(c.cecilia, { name: "Cecilia Dahl" })).status).toBe(200);
    const party = await api(`/v1/contracts/${c.id}/parties/${c.parties[2]!.id}`, { email: EDITOR });
    expect(party.json).toMatchObject({ name: "Cecilia Dahl", participant: { name: "Cecilia Dahl" } });
  });

  it("lets the anonymous admin update any participant", async () => {
    const c = await contract({ workspaceId: ws.procurement });
    const res = await api(c.ann, { method: "PUT", body: { title: "by token" } });
    expect(res.status).toBe(200);
    expect(res.json.title).toBe("by token");
  });
});

describe("If-Match", () => {
  it("round-trips: the current ETag is accepted, a stale one answers 412 with the current ETag", async () => {
    const c = await contract();
    const etag = (await api(c.ann, { email: EDITOR })).headers.get("etag")!;
    const first = await put(c.ann, { title: "first" }, { headers: { "if-match": etag } });
    expect(first.status).toBe(200);
    const stale = await put(c.ann, { title: "second" }, { headers: { "if-match": etag } });
    expectError(stale, "stale_if_match");
    expect(stale.headers.get("etag")).toBe(first.headers.get("etag"));
    expect((await api(c.ann, { email: EDITOR })).json.title).toBe("first");
    const again = await put(c.ann, { title: "second" }, { headers: { "if-match": first.headers.get("etag")! } });
    expect(again.status).toBe(200);
  });

  it("answers 412 before 403, 409 and the participant rules", async () => {
    const legal = await contract({ workspaceId: ws.legal });
    expectError(await put(legal.ann, { title: "x" }, { headers: { "if-match": '"stale"' } }), "stale_if_match");
    const signed = await contract({ state: "signed" });
    expectError(await put(signed.ann, { title: "x" }, { headers: { "if-match": '"stale"' } }), "stale_if_match");
    const draft = await contract();
    expectError(await put(draft.ann, { delivery_channel: "none" }, { headers: { "if-match": '"stale"' } }), "stale_if_match");
  });
});

describe("PUT a participant: client errors", () => {
  let c: Awaited<ReturnType<typeof contract>>;
  beforeAll(async () => {
    c = await contract();
  });

  it.each([
    ["null", { title: null }, "validation_failed", "title"],
    ["a wrong type", { signatory: "yes" }, "validation_failed", "signatory"],
    ["an unknown enum value", { delivery_channel: "pigeon" }, "validation_failed", "delivery_channel"],
    ["an invalid e-mail", { email: "not-an-address" }, "validation_failed", "email"],
    ["an unknown attribute", { nickname: "x" }, "unknown_attribute", "nickname"],
    ["a read-only attribute", { id: 1, sign_state: "signed" }, "unknown_attribute", "sign_state"],
    ["an unknown permission", { _permissions: { "contract:update": true, "contract:delete": true } }, "unknown_attribute", "_permissions.contract:delete"],
    ["an option the template does not offer", { sign_method: "sms" }, "option_not_offered", "sign_method"],
    ["a channel without its attribute", { delivery_channel: "sms" }, "participant_attribute_missing", "phone_number"],
    ["a signatory without contract:update", { _permissions: { "contract:update": false } }, "signatory_requires_contract_update", "signatory"],
  ] as const)("answers 400 for %s", async (_what, body, key, path) => {
    const before = await api(c.ann, { email: EDITOR });
    const res = await put(c.ann, body);
    const error = expectError(res, key);
    expect(Object.keys(error.parameter_problems ?? {})).toContain(path);
    expect((await api(c.ann, { email: EDITOR })).json).toEqual(before.json);
  });

  it("answers 400 owner_participant_email_immutable for the owner side's e-mail", async () => {
    const error = expectError(await put(c.organizer, { email: "new@example.com" }), "owner_participant_email_immutable");
    expect(error.parameter_problems).toHaveProperty("email");
  });

  it("answers 400 for malformed JSON and a body that is not an object, 415 for another content type", async () => {
    expectError(await put(c.ann, '{"title": "x"'), "malformed_json");
    expectError(await put(c.ann, "[]"), "body_not_object");
    expectError(await put(c.ann, "title=x", { headers: { "content-type": "application/x-www-form-urlencoded" } }), "content_type_not_json");
  });

  it("answers 400 for ids that are not positive int32 integers", async () => {
    const [, , , contractId, , partyId, , participantId] = c.ann.split("/");
    for (const [path, name] of [
      [`/v1/contracts/2147483648/parties/${partyId}/participants/${participantId}`, "contract_id"],
      [`/v1/contracts/${contractId}/parties/0/participants/${participantId}`, "party_id"],
      [`/v1/contracts/${contractId}/parties/${partyId}/participants/abc`, "participant_id"],
      [`/v1/contracts/${contractId}/parties/${partyId}/participants/01`, "participant_id"],
    ] as const) {
      const error = expectError(await put(path, { title: "x" }), "invalid_path_id");
      expect(error.parameter_problems).toHaveProperty(name);
    }
  });

  it("answers 401 without a valid token or user", async () => {
    expectError(await put(c.ann, { title: "x" }, { token: null }), "missing_api_token");
    expectError(await put(c.ann, { title: "x" }, { token: "not-a-valid-token-at-all-0000" }), "invalid_api_token");
    expectError(await put(c.ann, { title: "x" }, { email: "nobody@example.com" }), "unknown_user_email");
  });

  it("answers 403 to a viewer, 404 outside the caller's workspaces or off the path", async () => {
    const legal = await contract({ workspaceId: ws.legal });
    expectError(await put(legal.ann, { title: "x" }), "role_cannot_write");
    expectError(await put(legal.ann, { title: "x" }, { email: "viewer@example.com" }), "resource_not_found");
    const procurement = await contract({ workspaceId: ws.procurement });
    expectError(await put(procurement.ann, { title: "x" }), "resource_not_found");
    // A participant of another party of the same contract.
    const cecilia = c.parties[2]!.participants[0]!.id;
    expectError(await put(`/v1/contracts/${c.id}/parties/${c.parties[1]!.id}/participants/${cecilia}`, { title: "x" }), "resource_not_found");
  });

  it("answers 409 once the contract is signed, declined or overdue", async () => {
    for (const state of ["signed", "declined", "overdue"] as const) {
      const closed = await contract({ state });
      expectError(await put(closed.ann, { title: "x" }), "contract_not_editable");
    }
  });

  it("answers 405 for other methods", async () => {
    const res = await api(c.ann, { method: "POST", body: {}, email: EDITOR });
    expectError(res, "method_not_allowed");
    expect(res.headers.get("allow")).toBe("GET, PUT, DELETE");
  });
});

// The row lock (`SELECT … FOR UPDATE`) is what these tests are about. Only PostgreSQL runs
// transactions side by side, so only the PostgreSQL run can see it missing: the embedded database
// runs one transaction at a time, where they pass with or without the lock (they still check the
// outcome there). `npm test` runs this file on both.
const lockProvedHere = inject("databaseKind") === "postgres" ? "proves the row lock" : "cannot see a missing lock: PostgreSQL proves it";

describe("concurrent writers", () => {
  it("keeps every change of 20 parallel updates of different attributes", async () => {
    const c = await contract();
    const bodies = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0 ? { title: `T${i}` } : { identification_number: `ID${i}` },
    );
    const results = await Promise.all(bodies.map((body) => put(c.ann, body)));
    expect(results.map((r) => r.status)).toEqual(bodies.map(() => 200));
    const final = (await api(c.ann, { email: EDITOR })).json;
    const events = await serverDb().auditEvent.findMany({
      where: { entityType: "participant", entityId: Number(c.ann.split("/").pop()) },
      orderBy: { id: "asc" },
    });
    expect(events).toHaveLength(20);
    const replayed = Object.assign({}, ...events.map((e) => e.after as object));
    expect(replayed).toEqual({ title: final.title, identification_number: final.identification_number });
  });

  it(`20 parallel writes of the same attribute: each audit event's before is the previous one's after (${lockProvedHere})`, async () => {
    const c = await contract();
    const id = Number(c.ann.split("/").pop());
    const start = await serverDb().participant.findUniqueOrThrow({ where: { id } });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => put(c.ann, { title: `Title ${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const events = await serverDb().auditEvent.findMany({ where: { entityType: "participant", entityId: id }, orderBy: { id: "asc" } });
    expect(events).toHaveLength(20);
    // Without the lock two writers read the same title, and both record it as their `before`.
    let last: unknown = start.title;
    for (const event of events) {
      expect((event.before as { title: unknown }).title, `event ${event.id}: its before is not the title the previous writer left`).toBe(last);
      last = (event.after as { title: unknown }).title;
    }
    const final = await serverDb().participant.findUniqueOrThrow({ where: { id } });
    expect(final.title).toBe(last);
    expect(final.version).toBe(start.version + 20);
  });

  it(`20 parallel writes with one If-Match: exactly one wins, the others get 412 (${lockProvedHere})`, async () => {
    const c = await contract();
    const etag = (await api(c.ann, { email: EDITOR })).headers.get("etag")!;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => put(c.ann, { title: `Racer ${i}` }, { headers: { "if-match": etag } })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(412)]);
    const winner = results.find((r) => r.status === 200)!;
    const events = await serverDb().auditEvent.findMany({ where: { entityType: "participant", entityId: Number(c.ann.split("/").pop()) } });
    expect(events.map((e) => e.after)).toEqual([{ title: winner.json.title }]);
    expect((await api(c.ann, { email: EDITOR })).json.title).toBe(winner.json.title);
  });
});
