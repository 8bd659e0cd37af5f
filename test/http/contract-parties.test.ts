// Issue 13: adding and removing parties and participants of a draft, setting data field values
// (by id or `c::{custom_id}`), and data field values on creation.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ERROR_CODES, type TErrorKey } from "@/lib/domain/error-codes";
import { createContract, createTemplate, type CounterpartyInput } from "@/lib/db/seed/factories";
import type { TContractState } from "@/lib/domain/enums";
import { ZApiErrorSchema, ZContractSchema, ZDataFieldSchema, ZParticipantSchema, ZPartySchema } from "@/lib/schemas";
import { api, baseUrl, seededWorkspaces, serverDb } from "@/test/helpers/http";

const EDITOR = "editor@example.com";
const VIEWER = "viewer@example.com";

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
    dataFields: [
      { name: "Start", customId: "start", defaultValue: "2025-01-01" },
      { name: "Term", customId: "term in months", defaultValue: "12" },
      { name: "Notes" },
    ],
  });
  templateId = template.id;
});

/** A contract of its own: owner side (the editor as organizer), a company of two, an individual. */
async function contract(options: { workspaceId?: number; state?: TContractState; counterparties?: CounterpartyInput[] } = {}) {
  const db = serverDb();
  const row = await db.$transaction(
    (tx) =>
      createContract(tx, {
        workspaceId: options.workspaceId ?? ws.sales,
        templateId,
        state: options.state,
        owner: editorUser,
        counterparties: options.counterparties ?? [
          { type: "company", name: "Buyer AB", participants: [{ name: "Ann", email: "ann@example.org" }, { name: "Bo" }] },
          { type: "individual", participant: { name: "Cecilia", identificationNumber: "19800101-1234" } },
        ],
      }),
    { timeout: 60_000 },
  );
  const parties = await db.party.findMany({ where: { contractId: row.id }, include: { participants: { orderBy: { id: "asc" } } }, orderBy: { id: "asc" } });
  const base = `/v1/contracts/${row.id}`;
  const party = (i: number) => `${base}/parties/${parties[i]!.id}`;
  const participant = (i: number, j = 0) => `${party(i)}/participants/${parties[i]!.participants[j]!.id}`;
  return { id: row.id, base, parties, party, participant, updatedAt: row.updatedAt };
}

function call(method: string, path: string, body?: unknown, email: string | undefined = EDITOR) {
  return api(path, { method, body, email });
}

function expectError(res: { status: number; json: unknown }, key: TErrorKey) {
  const { status, code } = ERROR_CODES[key];
  expect({ status: res.status, code: (res.json as { error_code?: number })?.error_code }).toEqual({ status, code });
  return ZApiErrorSchema.parse(res.json);
}

async function auditEvents(contractId: number, action: string) {
  return serverDb().auditEvent.findMany({ where: { contractId, action }, orderBy: { id: "asc" } });
}

async function contractUpdatedAt(contractId: number) {
  return (await serverDb().contract.findUniqueOrThrow({ where: { id: contractId } })).updatedAt;
}

/** Everything a contract holds, to prove a refused request wrote nothing. */
async function snapshot(contractId: number) {
  return (await api(`/v1/contracts/${contractId}`, { email: EDITOR })).json;
}

const COMPANY = {
  type: "company",
  name: "Seller Oy",
  country_code: "fi",
  identification_number: "1234567-8",
  participants: [
    { name: "Dan", email: "dan@example.org", signatory: true },
    { name: "Eve", phone_number: "+46701234567", delivery_channel: "sms", title: "CFO" },
  ],
};

describe("POST /v1/contracts/{id}/parties", () => {
  it("adds a company to a draft: 200 with the party as GET answers it, defaults applied, audited, contract touched", async () => {
    const c = await contract();
    const res = await call("POST", `${c.base}/parties`, COMPANY);
    expect(res.status).toBe(200);
    const party = ZPartySchema.parse(res.json);
    if (party.type !== "company") throw new Error("not a company");
    expect(party).toMatchObject({ name: "Seller Oy", country_code: "FI", identification_number: "1234567-8", my_party: false });
    expect(party.participants.map((p) => [p.name, p.delivery_channel, p.sign_method, p.two_step_authentication_method, p.signatory, p._permissions["contract:update"]])).toEqual([
      ["Dan", "email", "standard_esign", "none", true, true],
      ["Eve", "sms", "standard_esign", "none", false, false],
    ]);
    expect(party._links).toEqual({ self: { href: `${baseUrl()}${c.base}/parties/${party.id}` }, contract: { href: `${baseUrl()}${c.base}` } });
    expect((await call("GET", `${c.base}/parties/${party.id}`)).json).toEqual(res.json);
    const contractBody = ZContractSchema.parse(await snapshot(c.id));
    expect(contractBody.parties.map((p) => p.id).at(-1)).toBe(party.id);
    expect((await contractUpdatedAt(c.id)).getTime()).toBeGreaterThan(c.updatedAt.getTime());
    const [event] = await auditEvents(c.id, "party.create");
    expect(event).toMatchObject({ entityType: "party", entityId: party.id, actorUserId: editorUser.id });
    expect(event!.after).toMatchObject({ type: "company", name: "Seller Oy", country_code: "FI", participants: [{ name: "Dan" }, { name: "Eve", phone_number: "+46701234567" }] });
  });

  it("adds an individual, whose name and number are its participant's", async () => {
    const c = await contract();
    const res = await call("POST", `${c.base}/parties`, {
      type: "individual",
      name: "ignored",
      participant: { name: "Frida", identification_number: "19900101-0000", email: "frida@example.org" },
    });
    expect(res.status).toBe(200);
    expect(ZPartySchema.parse(res.json)).toMatchObject({ type: "individual", name: "Frida", identification_number: "19900101-0000", participant: { name: "Frida" } });
  });

  it.each([
    ["an option the template does not offer", { ...COMPANY, participants: [{ name: "X", email: "x@example.org", sign_method: "sms" }] }, "option_not_offered", "participants.0.sign_method"],
    ["a channel without its attribute", { type: "individual", participant: { name: "X", delivery_channel: "sms" } }, "participant_attribute_missing", "participant.phone_number"],
    ["a two-step method without its attribute", { type: "individual", participant: { name: "X", delivery_channel: "sms", phone_number: "+46701234567", two_step_authentication_method: "email" } }, "participant_attribute_missing", "participant.email"],
    ["a signatory without contract:update", { type: "individual", participant: { name: "X", email: "x@example.org", signatory: true, _permissions: { "contract:update": false } } }, "signatory_requires_contract_update", "participant.signatory"],
    ["a company without participants", { type: "company", name: "Empty", participants: [] }, "validation_failed", "participants"],
    ["an unknown attribute", { ...COMPANY, nickname: "x" }, "unknown_attribute", "nickname"],
    ["an unknown party type", { type: "trust", name: "X" }, "validation_failed", "type"],
  ] as const)("answers 400 for %s, writing nothing", async (_what, body, key, path) => {
    const c = await contract();
    const before = await snapshot(c.id);
    const error = expectError(await call("POST", `${c.base}/parties`, body), key);
    expect(Object.keys(error.parameter_problems ?? {})).toContain(path);
    expect(await snapshot(c.id)).toEqual(before);
  });

  it("counts the contract's counterparties against the limit of 50", async () => {
    const c = await contract({ counterparties: Array.from({ length: 50 }, (_, i) => ({ type: "individual", participant: { name: `P${i}` } }) as const) });
    const error = expectError(await call("POST", `${c.base}/parties`, { type: "individual", participant: { name: "One too many", email: "x@example.org" } }), "validation_failed");
    expect(error.parameter_problems).toEqual({ $: ["a contract can have at most 50 counterparties; it has 50"] });
    // Removing one makes room again.
    expect((await call("DELETE", c.party(1))).status).toBe(204);
    expect((await call("POST", `${c.base}/parties`, { type: "individual", participant: { name: "Fits", email: "x@example.org" } })).status).toBe(200);
  });

  it("counts the counterparties' participants against the limit of 200 in all", async () => {
    const company = (n: number) => ({ type: "company", name: `C${n}`, participants: Array.from({ length: 50 }, (_, i) => ({ name: `P${n}-${i}` })) }) as const;
    const c = await contract({ counterparties: [company(1), company(2), company(3), { ...company(4), participants: company(4).participants.slice(0, 49) }] });
    const error = expectError(await call("POST", `${c.base}/parties`, { ...COMPANY }), "validation_failed");
    expect(error.parameter_problems).toEqual({ participants: ["the counterparties can have at most 200 participants in all; they have 199"] });
    expect((await call("POST", `${c.base}/parties`, { type: "individual", participant: { name: "Last", email: "x@example.org" } })).status).toBe(200);
    expectError(await call("POST", `${c.base}/parties/${c.parties[1]!.id}/participants`, { name: "201st", email: "x@example.org" }), "validation_failed");
  });

  it("answers 409 contract_not_draft unless the contract is a draft", async () => {
    for (const state of ["pending", "signed"] as const) {
      const c = await contract({ state });
      const error = expectError(await call("POST", `${c.base}/parties`, COMPANY), "contract_not_draft");
      expect(error.detail).toContain("only while it is a draft");
    }
  });

  it("answers 403 to a viewer, 404 outside the caller's workspaces, 400 for a bad id", async () => {
    const legal = await contract({ workspaceId: ws.legal });
    expectError(await call("POST", `${legal.base}/parties`, COMPANY), "role_cannot_write");
    expectError(await call("POST", `${legal.base}/parties`, COMPANY, VIEWER), "resource_not_found");
    const procurement = await contract({ workspaceId: ws.procurement });
    expectError(await call("POST", `${procurement.base}/parties`, COMPANY), "resource_not_found");
    expectError(await call("POST", `/v1/contracts/0/parties`, COMPANY), "invalid_path_id");
  });
});

describe("DELETE /v1/contracts/{id}/parties/{party_id}", () => {
  it("removes a counterparty with its participants: 204, then 404, audited, contract touched", async () => {
    const c = await contract();
    const res = await call("DELETE", c.party(1));
    expect([res.status, res.text]).toEqual([204, ""]);
    expectError(await call("GET", c.party(1)), "resource_not_found");
    expectError(await call("GET", c.participant(1, 0)), "resource_not_found");
    expect(await serverDb().participant.count({ where: { partyId: c.parties[1]!.id } })).toBe(0);
    expect(ZContractSchema.parse(await snapshot(c.id)).parties.map((p) => p.id)).toEqual([c.parties[0]!.id, c.parties[2]!.id]);
    expect((await contractUpdatedAt(c.id)).getTime()).toBeGreaterThan(c.updatedAt.getTime());
    const [event] = await auditEvents(c.id, "party.delete");
    expect(event).toMatchObject({ entityType: "party", entityId: c.parties[1]!.id });
    expect(event!.before).toMatchObject({ name: "Buyer AB", type: "company", participants: [{ name: "Ann" }, { name: "Bo" }] });
    expectError(await call("DELETE", c.party(1)), "resource_not_found");
  });

  it("refuses the owner-side party (409) and anything but a draft (409)", async () => {
    const c = await contract();
    expectError(await call("DELETE", c.party(0)), "my_party_not_removable");
    const pending = await contract({ state: "pending" });
    expectError(await call("DELETE", pending.party(1)), "contract_not_draft");
    expect((await call("GET", pending.party(1))).status).toBe(200);
  });

  it("answers 403 to a viewer, 404 for another contract's party", async () => {
    const legal = await contract({ workspaceId: ws.legal });
    expectError(await call("DELETE", legal.party(1)), "role_cannot_write");
    const c = await contract();
    expectError(await call("DELETE", `${c.base}/parties/${legal.parties[1]!.id}`), "resource_not_found");
  });
});

describe("POST /v1/contracts/{id}/parties/{party_id}/participants", () => {
  it("adds a participant to a company: 200 with the participant and ETag as GET answers them, audited", async () => {
    const c = await contract();
    const res = await call("POST", `${c.party(1)}/participants`, { name: "Gus", phone_number: "+4670000000", delivery_channel: "sms", signatory: true });
    expect(res.status).toBe(200);
    const body = ZParticipantSchema.parse(res.json);
    expect(body).toMatchObject({ name: "Gus", delivery_channel: "sms", signatory: true, _permissions: { "contract:update": true }, organizer: false, sign_state: "undecided" });
    const self = `${c.party(1)}/participants/${body.id}`;
    expect(body._links?.self.href).toBe(`${baseUrl()}${self}`);
    const get = await call("GET", self);
    expect(get.json).toEqual(res.json);
    expect(res.headers.get("etag")).toBeTruthy();
    expect(res.headers.get("etag")).toBe(get.headers.get("etag"));
    expect((await contractUpdatedAt(c.id)).getTime()).toBeGreaterThan(c.updatedAt.getTime());
    const [event] = await auditEvents(c.id, "participant.create");
    expect(event).toMatchObject({ entityType: "participant", entityId: body.id });
    expect(event!.after).toMatchObject({ party_id: c.parties[1]!.id, name: "Gus", phone_number: "+4670000000", signatory: true });
  });

  it("refuses an individual party and the owner-side party (409 party_takes_no_participants)", async () => {
    const c = await contract();
    expectError(await call("POST", `${c.party(2)}/participants`, { name: "H", email: "h@example.org" }), "party_takes_no_participants");
    expectError(await call("POST", `${c.party(0)}/participants`, { name: "H", email: "h@example.org" }), "party_takes_no_participants");
  });

  it.each([
    ["an option the template does not offer", { name: "X", email: "x@example.org", delivery_channel: "none" }, "option_not_offered", "delivery_channel"],
    ["a channel without its attribute", { name: "X" }, "participant_attribute_missing", "email"],
    ["a read-only attribute", { name: "X", email: "x@example.org", organizer: true }, "unknown_attribute", "organizer"],
    ["no name", { email: "x@example.org" }, "validation_failed", "name"],
  ] as const)("answers 400 for %s", async (_what, body, key, path) => {
    const c = await contract();
    const error = expectError(await call("POST", `${c.party(1)}/participants`, body), key);
    expect(Object.keys(error.parameter_problems ?? {})).toContain(path);
    expect(await serverDb().participant.count({ where: { partyId: c.parties[1]!.id } })).toBe(2);
  });

  it("counts the party's participants against the limit of 50", async () => {
    const c = await contract({ counterparties: [{ type: "company", name: "Big", participants: Array.from({ length: 50 }, (_, i) => ({ name: `P${i}` })) }] });
    const error = expectError(await call("POST", `${c.party(1)}/participants`, { name: "51st", email: "x@example.org" }), "validation_failed");
    expect(error.parameter_problems).toEqual({ $: ["a party can have at most 50 participants; it has 50"] });
  });

  it("answers 409 unless a draft, 403 to a viewer, 404 for another contract's party", async () => {
    const pending = await contract({ state: "pending" });
    expectError(await call("POST", `${pending.party(1)}/participants`, { name: "X", email: "x@example.org" }), "contract_not_draft");
    const legal = await contract({ workspaceId: ws.legal });
    expectError(await call("POST", `${legal.party(1)}/participants`, { name: "X", email: "x@example.org" }), "role_cannot_write");
    const c = await contract();
    expectError(await call("POST", `${c.base}/parties/${legal.parties[1]!.id}/participants`, { name: "X", email: "x@example.org" }), "resource_not_found");
  });
});

describe("DELETE …/participants/{participant_id}", () => {
  it("removes a participant: 204, then 404, audited, party and contract touched", async () => {
    const c = await contract();
    const res = await call("DELETE", c.participant(1, 1));
    expect([res.status, res.text]).toEqual([204, ""]);
    expectError(await call("GET", c.participant(1, 1)), "resource_not_found");
    const party = ZPartySchema.parse((await call("GET", c.party(1))).json);
    expect(party.type === "company" && party.participants.map((p) => p.name)).toEqual(["Ann"]);
    expect(party._private_ownerside.updated_time).not.toBeNull();
    expect((await contractUpdatedAt(c.id)).getTime()).toBeGreaterThan(c.updatedAt.getTime());
    const [event] = await auditEvents(c.id, "participant.delete");
    expect(event).toMatchObject({ entityType: "participant", entityId: c.parties[1]!.participants[1]!.id });
    expect(event!.before).toMatchObject({ party_id: c.parties[1]!.id, name: "Bo" });
  });

  it("refuses the organizer, a counterparty's last participant and an individual's participant (409)", async () => {
    const c = await contract();
    expectError(await call("DELETE", c.participant(0)), "organizer_not_removable");
    expectError(await call("DELETE", c.participant(2)), "party_needs_participant");
    expect((await call("DELETE", c.participant(1, 0))).status).toBe(204);
    expectError(await call("DELETE", c.participant(1, 1)), "party_needs_participant");
    expect((await call("GET", c.participant(1, 1))).status).toBe(200);
  });

  it("answers 409 unless a draft, 403 to a viewer, 404 for a participant of another party", async () => {
    const pending = await contract({ state: "pending" });
    expectError(await call("DELETE", pending.participant(1, 1)), "contract_not_draft");
    const legal = await contract({ workspaceId: ws.legal });
    expectError(await call("DELETE", legal.participant(1, 1)), "role_cannot_write");
    const c = await contract();
    expectError(await call("DELETE", `${c.party(2)}/participants/${c.parties[1]!.participants[0]!.id}`), "resource_not_found");
  });
});

describe("PUT /v1/contracts/{id}/data_fields/{data_field_id}", () => {
  async function fields(c: { id: number }) {
    return serverDb().contractDataField.findMany({ where: { contractId: c.id }, orderBy: { id: "asc" } });
  }

  it("sets the value by id: 200 with the field as GET answers it, audited, contract touched", async () => {
    const c = await contract();
    const [start] = await fields(c);
    const path = `${c.base}/data_fields/${start!.id}`;
    const res = await call("PUT", path, { value: "2026-03-01" });
    expect(res.status).toBe(200);
    const body = ZDataFieldSchema.parse(res.json);
    expect(body).toMatchObject({ id: start!.id, name: "Start", value: "2026-03-01", _private_ownerside: { custom_id: "start" } });
    expect((await call("GET", path)).json).toEqual(res.json);
    expect((await contractUpdatedAt(c.id)).getTime()).toBeGreaterThan(c.updatedAt.getTime());
    const [event] = await auditEvents(c.id, "data_field.update");
    expect(event).toMatchObject({ entityType: "data_field", entityId: start!.id, before: { value: "2025-01-01" }, after: { value: "2026-03-01" } });
  });

  it("names a field by c::{custom_id}, plain or percent-encoded, for GET and PUT alike", async () => {
    const c = await contract();
    const [, term] = await fields(c);
    const byId = (await call("GET", `${c.base}/data_fields/${term!.id}`)).json;
    expect((await call("GET", `${c.base}/data_fields/c::${encodeURIComponent("term in months")}`)).json).toEqual(byId);
    expect((await call("GET", `${c.base}/data_fields/${encodeURIComponent("c::term in months")}`)).json).toEqual(byId);
    const res = await call("PUT", `${c.base}/data_fields/c%3A%3Aterm%20in%20months`, { value: "24" });
    expect(res.status).toBe(200);
    expect(ZDataFieldSchema.parse(res.json)).toMatchObject({ id: term!.id, value: "24" });
    expect(res.json._links.self.href).toBe(`${baseUrl()}${c.base}/data_fields/${term!.id}`);
    expectError(await call("GET", `${c.base}/data_fields/c::nothing-like-this`), "resource_not_found");
    expectError(await call("PUT", `${c.base}/data_fields/c::nothing-like-this`, { value: "x" }), "resource_not_found");
    const empty = expectError(await call("GET", `${c.base}/data_fields/c::`), "invalid_path_id");
    expect(empty.parameter_problems).toHaveProperty("data_field_id");
    for (const bad of ["0", "01", "x", "2147483648", "C::term"]) expectError(await call("PUT", `${c.base}/data_fields/${bad}`, { value: "x" }), "invalid_path_id");
  });

  it("writes nothing for the same value (same updated_time, no audit event)", async () => {
    const c = await contract();
    const [, term] = await fields(c);
    const path = `${c.base}/data_fields/${term!.id}`;
    const before = (await call("GET", path)).json;
    const res = await call("PUT", path, { value: "12" });
    expect(res.json).toEqual(before);
    expect(await auditEvents(c.id, "data_field.update")).toEqual([]);
  });

  it("takes any text up to 10,000 characters, kept as sent; clears with \"\"", async () => {
    const c = await contract();
    const [, , notes] = await fields(c);
    const path = `${c.base}/data_fields/${notes!.id}`;
    const long = ` ${"x".repeat(9_998)} `;
    expect((await call("PUT", path, { value: long })).json.value).toBe(long);
    expect((await call("PUT", path, { value: "" })).json.value).toBe("");
  });

  it.each([
    ["a value over 10,000 characters", { value: "x".repeat(10_001) }, "validation_failed", "value"],
    ["null", { value: null }, "validation_failed", "value"],
    ["a number", { value: 12 }, "validation_failed", "value"],
    ["no value", {}, "validation_failed", "value"],
    ["an unknown attribute", { value: "x", colour: "red" }, "unknown_attribute", "colour"],
    ["a read-only attribute", { value: "x", name: "Renamed" }, "unknown_attribute", "name"],
  ] as const)("answers 400 for %s", async (_what, body, key, path) => {
    const c = await contract();
    const [start] = await fields(c);
    const error = expectError(await call("PUT", `${c.base}/data_fields/${start!.id}`, body), key);
    expect(Object.keys(error.parameter_problems ?? {})).toContain(path);
    expect((await fields(c))[0]!.value).toBe("2025-01-01");
  });

  it("changes drafts only (409: frozen once published, not editable once closed), for writers only (403), within the contract (404)", async () => {
    const pending = await contract({ state: "pending" });
    expectError(await call("PUT", `${pending.base}/data_fields/c::start`, { value: "later" }), "data_fields_frozen");
    expect((await fields(pending))[0]!.value).toBe("2025-01-01");
    for (const state of ["signed", "declined", "overdue"] as const) {
      const closed = await contract({ state });
      expectError(await call("PUT", `${closed.base}/data_fields/c::start`, { value: "x" }), "contract_not_editable");
    }
    const legal = await contract({ workspaceId: ws.legal });
    expectError(await call("PUT", `${legal.base}/data_fields/c::start`, { value: "x" }), "role_cannot_write");
    expectError(await call("PUT", `${legal.base}/data_fields/c::start`, { value: "x" }, VIEWER), "resource_not_found");
    const c = await contract();
    const [otherField] = await fields(legal);
    expectError(await call("PUT", `${c.base}/data_fields/${otherField!.id}`, { value: "x" }), "resource_not_found");
  });
});

describe("POST /v1/contracts/create with data_fields", () => {
  const create = (body: Record<string, unknown>) =>
    call("POST", "/v1/contracts/create", { workspace_id: ws.sales, template_id: templateId, ...body });

  it("replaces the template's defaults with the values sent, by custom id", async () => {
    const res = await create({ data_fields: [{ custom_id: "term in months", value: "36" }, { custom_id: "start", value: "" }] });
    expect(res.status).toBe(200);
    const list = await call("GET", `/v1/contracts/${res.json.id}/data_fields?limit=all`);
    expect(list.json.data.map((f: { name: string; value: string }) => [f.name, f.value])).toEqual([["Start", ""], ["Term", "36"], ["Notes", ""]]);
    const [event] = await auditEvents(res.json.id, "contract.create");
    expect(event!.after).toMatchObject({ data_fields: [{ custom_id: "term in months", value: "36" }, { custom_id: "start", value: "" }] });
  });

  it.each([
    ["an unknown custom id", [{ custom_id: "start", value: "x" }, { custom_id: "nope", value: "x" }], "data_fields.1.custom_id", "is not the custom id of one of the template's data fields"],
    ["a custom id given twice", [{ custom_id: "start", value: "x" }, { custom_id: "start", value: "y" }], "data_fields.1.custom_id", "is given more than once"],
    ["an empty custom id", [{ custom_id: "", value: "x" }], "data_fields.0.custom_id", "must not be empty"],
    ["a value over 10,000 characters", [{ custom_id: "start", value: "x".repeat(10_001) }], "data_fields.0.value", "must be at most 10000 characters"],
  ])("answers 400 naming %s, creating nothing", async (_what, dataFields, path, message) => {
    const name = `DF ${Math.random()}`;
    const res = await create({ name, data_fields: dataFields });
    const error = expectError(res, "validation_failed");
    expect(error.parameter_problems?.[path]).toEqual([message]);
    expect(await serverDb().contract.count({ where: { name } })).toBe(0);
  });

  it("names data field and participant problems in one 400", async () => {
    const res = await create({ parties: [{ type: "individual", participant: { name: "X" } }], data_fields: [{ custom_id: "nope", value: "x" }] });
    const error = expectError(res, "participant_attribute_missing");
    expect(Object.keys(error.parameter_problems ?? {}).sort()).toEqual(["data_fields.0.custom_id", "parties.0.participant.email"]);
  });
});

// The contract's row lock is what keeps the limits true under concurrent adds. Only PostgreSQL runs
// transactions side by side, so only the PostgreSQL run could see it missing.
const lockProvedHere = inject("databaseKind") === "postgres" ? "proves the contract lock" : "cannot see a missing lock: PostgreSQL proves it";

describe("concurrent changes", () => {
  it(`adding 6 participants at once to a party with room for 1 adds exactly 1 (${lockProvedHere})`, async () => {
    const c = await contract({ counterparties: [{ type: "company", name: "Almost full", participants: Array.from({ length: 49 }, (_, i) => ({ name: `P${i}` })) }] });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call("POST", `${c.party(1)}/participants`, { name: `Racer ${i}`, email: `r${i}@example.org` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(await serverDb().participant.count({ where: { partyId: c.parties[1]!.id } })).toBe(50);
  });
});
