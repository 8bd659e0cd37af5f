import { beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES, type TErrorKey } from "@/lib/domain/error-codes";
import { createTemplate } from "@/lib/db/seed/factories";
import { ZApiErrorSchema, ZContractSchema, type TContract } from "@/lib/schemas";
import { KEPT_AND_COUNTED_SQL, type TKeptAndCounted } from "@/test/helpers/contract-counts";
import { api, baseUrl, seededWorkspaces, serverDb } from "@/test/helpers/http";

const EDITOR = "editor@example.com";
const PATH = "/v1/contracts/create";

let ws: { sales: number; legal: number; procurement: number };
let templates: { sales: number; procurementOnly: number };
/** The procurement-only template's name, which a contract created without a name takes. */
const PROCUREMENT_TEMPLATE_NAME = "Procurement framework (create-contract test)";

beforeAll(async () => {
  const db = serverDb();
  ws = await seededWorkspaces();
  const sales = await createTemplate(db, {
    name: "HTTP create template",
    workspaceIds: [ws.sales, ws.legal],
    deliveryChannels: ["email", "sms"],
    signMethods: [{ name: "swedish_bankid", preferred: true }, "standard_esign"],
    twoStepMethods: ["none", "email"],
    dataFields: [{ name: "Amount", defaultValue: "100", customId: "amount" }],
  });
  const procurementOnly = await createTemplate(db, { name: PROCUREMENT_TEMPLATE_NAME, workspaceIds: [ws.procurement] });
  templates = { sales: sales.id, procurementOnly: procurementOnly.id };
});

function create(body: unknown, options: { email?: string; headers?: Record<string, string> } = {}) {
  return api(PATH, { method: "POST", body, email: options.email, headers: options.headers });
}

function expectError(res: { status: number; json: unknown }, key: TErrorKey) {
  const { status, code } = ERROR_CODES[key];
  expect({ status: res.status, code: (res.json as { error_code?: number })?.error_code }).toEqual({ status, code });
  return ZApiErrorSchema.parse(res.json);
}

/** Contracts from this file's templates (other test files create contracts at the same time). */
const contractCount = () => serverDb().contract.count({ where: { templateId: { in: [templates.sales, templates.procurementOnly] } } });

const counterparties = [
  {
    type: "company",
    name: "Buyer AB",
    country_code: "se",
    identification_number: "556677-8899",
    participants: [
      { name: "Ann", email: "ann@example.org", signatory: true, _permissions: { "contract:update": true } },
      { name: "Bo", phone_number: "+4670111222", delivery_channel: "sms" },
    ],
  },
  { type: "individual", participant: { name: "Cecilia", email: "cecilia@example.org", identification_number: "19800101-1234" } },
];

function participantsOf(party: TContract["parties"][number]) {
  return party.type === "company" ? party.participants : [party.participant];
}

describe("POST /v1/contracts/create", () => {
  it("creates a contract for a named user: the organizer is the caller", async () => {
    const res = await create({ workspace_id: ws.sales, template_id: templates.sales, name: "HTTP deal", parties: counterparties }, { email: EDITOR });
    expect(res.status).toBe(200);
    const body = ZContractSchema.parse(res.json);
    expect(body).toMatchObject({ name: "HTTP deal", state: "draft", workspace_id: ws.sales, template_id: templates.sales });
    expect(body._links.self.href).toBe(`${baseUrl()}/v1/contracts/${body.id}`);
    expect(body.parties.map((p) => [p.type, p.my_party])).toEqual([
      ["company", true],
      ["company", false],
      ["individual", false],
    ]);
    const [own, company, individual] = body.parties;
    expect(own).toMatchObject({ name: "Acme Nordic AB", country_code: "SE" });
    expect(participantsOf(own!)).toEqual([
      expect.objectContaining({
        email: EDITOR,
        name: "Eddie Editor",
        organizer: true,
        my_participant: true,
        signatory: false,
        _permissions: { "contract:update": true },
        delivery_channel: "email",
        sign_method: "standard_esign",
      }),
    ]);
    expect(company).toMatchObject({ name: "Buyer AB", country_code: "SE", identification_number: "556677-8899" });
    expect(participantsOf(company!).map((p) => [p.name, p.delivery_channel, p.sign_method, p.two_step_authentication_method])).toEqual([
      ["Ann", "email", "standard_esign", "none"],
      ["Bo", "sms", "standard_esign", "none"],
    ]);
    expect(individual).toMatchObject({ name: "Cecilia", identification_number: "19800101-1234", participant: { name: "Cecilia" } });
    for (const p of body.parties.flatMap(participantsOf)) {
      expect(p).not.toHaveProperty("_links");
      expect(p).toMatchObject({ sign_state: "undecided", delivery_status: "not_sent", sign_state_updated_time: null });
    }
    // The contract is there for the readers too, with the template's data fields.
    const read = await api(`/v1/contracts/${body.id}`, { email: EDITOR });
    expect(read.json.parties).toEqual(res.json.parties);
    const fields = await api(`/v1/contracts/${body.id}/data_fields`, { email: EDITOR });
    expect(fields.json.data).toEqual([expect.objectContaining({ name: "Amount", value: "100" })]);
  });

  it("creates a contract for the anonymous admin without an owner-side participant", async () => {
    const res = await create({ workspace_id: ws.procurement, template_id: templates.procurementOnly });
    expect(res.status).toBe(200);
    const body = ZContractSchema.parse(res.json);
    expect(body.parties).toEqual([expect.objectContaining({ my_party: true, type: "company", participants: [] })]);
    // No name was sent: the contract is named after its template.
    expect(body.name).toBe(PROCUREMENT_TEMPLATE_NAME);
  });

  it("lets the owner-side participant change its own attributes right after", async () => {
    const created = ZContractSchema.parse((await create({ workspace_id: ws.sales, template_id: templates.sales }, { email: EDITOR })).json);
    const own = created.parties[0]!;
    const organizer = participantsOf(own)[0]!;
    const path = `/v1/contracts/${created.id}/parties/${own.id}/participants/${organizer.id}`;
    const res = await api(path, { method: "PUT", body: { title: "Lead" }, email: EDITOR });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ title: "Lead", my_participant: true });
  });
});

describe("POST /v1/contracts/create: client errors write nothing", () => {
  const valid = () => ({ workspace_id: ws.sales, template_id: templates.sales });

  it.each([
    ["a missing workspace_id", () => ({ template_id: templates.sales }), "validation_failed", "workspace_id"],
    ["null for the name", () => ({ ...valid(), name: null }), "validation_failed", "name"],
    ["an id beyond int32", () => ({ ...valid(), workspace_id: 2_147_483_648 }), "validation_failed", "workspace_id"],
    ["a company without participants", () => ({ ...valid(), parties: [{ type: "company", name: "X", participants: [] }] }), "validation_failed", "parties.0.participants"],
    ["a company without a name", () => ({ ...valid(), parties: [{ type: "company", participants: [{ name: "a", email: "a@example.org" }] }] }), "validation_failed", "parties.0.name"],
    ["an individual with participants", () => ({ ...valid(), parties: [{ type: "individual", participants: [] }] }), "validation_failed", "parties.0.participants"],
    ["an unknown party type", () => ({ ...valid(), parties: [{ type: "club", name: "X" }] }), "validation_failed", "parties.0.type"],
    ["an unknown attribute", () => ({ ...valid(), owner: "me" }), "unknown_attribute", "owner"],
    [
      "a participant without a required e-mail",
      () => ({ ...valid(), parties: [{ type: "company", name: "X", participants: [{ name: "a", email: "a@example.org" }, { name: "b" }] }] }),
      "participant_attribute_missing",
      "parties.0.participants.1.email",
    ],
    [
      "an individual without a required phone number",
      () => ({ ...valid(), parties: [{ type: "individual", participant: { name: "a", delivery_channel: "sms" } }] }),
      "participant_attribute_missing",
      "parties.0.participant.phone_number",
    ],
    [
      "an option the template does not offer",
      () => ({ ...valid(), parties: [{ type: "individual", participant: { name: "a", email: "a@example.org", sign_method: "sms" } }] }),
      "option_not_offered",
      "parties.0.participant.sign_method",
    ],
    [
      "a signatory without contract:update",
      () => ({ ...valid(), parties: [{ type: "individual", participant: { name: "a", email: "a@example.org", signatory: true, _permissions: { "contract:update": false } } }] }),
      "signatory_requires_contract_update",
      "parties.0.participant.signatory",
    ],
    ["a template the workspace may not use", () => ({ workspace_id: ws.sales, template_id: templates.procurementOnly }), "template_not_usable", "template_id"],
  ] as const)("answers 400 for %s", async (_what, body, key, path) => {
    const before = await contractCount();
    // The anonymous admin sees everything, so only the body can be at fault.
    const error = expectError(await create(body()), key);
    expect(Object.keys(error.parameter_problems ?? {})).toContain(path);
    expect(await contractCount()).toBe(before);
  });

  it("answers 400 for malformed JSON and 415 for another content type", async () => {
    expectError(await create('{"workspace_id": 1,'), "malformed_json");
    expectError(await create("[1]"), "body_not_object");
    expectError(await create(JSON.stringify(valid()), { headers: { "content-type": "text/plain" } }), "content_type_not_json");
  });

  it("answers 404 for a workspace or template the caller cannot see", async () => {
    const before = await contractCount();
    expectError(await create({ ...valid(), workspace_id: 2_147_483_647 }), "resource_not_found");
    expectError(await create({ ...valid(), template_id: 2_147_483_647 }), "resource_not_found");
    expectError(await create({ workspace_id: ws.procurement, template_id: templates.procurementOnly }, { email: EDITOR }), "resource_not_found");
    expect(await contractCount()).toBe(before);
  });

  it("answers 403 to a viewer of the workspace", async () => {
    expectError(await create(valid(), { email: "viewer@example.com" }), "role_cannot_write");
    expectError(await create({ workspace_id: ws.legal, template_id: templates.sales }, { email: EDITOR }), "role_cannot_write");
  });

  it("answers 401 for an unknown user and 405 for other methods", async () => {
    expectError(await create(valid(), { email: "nobody@example.com" }), "unknown_user_email");
    const res = await api(PATH, { method: "GET" });
    expectError(res, "method_not_allowed");
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("the contracts list's kept count (lib/services/contracts/fold-contract-counts.ts)", () => {
  it("a create writes its count delta, the server's background job folds it, and totals plus deltas stay the contracts there are", async () => {
    const db = serverDb();
    // The deltas' id sequence: the server's job may fold the create's delta before this test
    // looks at the table (a flaky read of max(id) found it empty), so the sequence shows it was written.
    const lastDeltaId = async () =>
      (await db.$queryRawUnsafe<{ last: bigint }[]>(`SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS last FROM contract_count_deltas_id_seq`))[0]!.last;
    const before = await lastDeltaId();
    const res = await create({ workspace_id: ws.sales, template_id: templates.sales, name: "Counted deal", parties: counterparties }, { email: EDITOR });
    expect(res.status).toBe(200);
    // The create's delta (or a later one: other files create contracts at the same time).
    const last = await lastDeltaId();
    expect(last).toBeGreaterThan(before);
    // The server folds every COUNT_FOLD_INTERVAL_MS (200 ms in tests): deltas up to that one go.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [{ left } = { left: -1 }] = await db.$queryRawUnsafe<{ left: number }[]>(`SELECT count(*)::int AS left FROM contract_count_deltas WHERE id <= $1`, last);
      if (left === 0) break;
      if (Date.now() > deadline) throw new Error(`${left} count deltas were not folded within 15 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // One statement, one snapshot: kept and counted agree whatever other files are writing.
    const [{ kept, counted } = { kept: {}, counted: {} }] = await db.$queryRawUnsafe<TKeptAndCounted[]>(KEPT_AND_COUNTED_SQL);
    expect(kept).toEqual(counted);
    expect(Object.keys(counted).length).toBeGreaterThan(0);
  });
});
