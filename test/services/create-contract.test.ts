import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/actor";
import { serializeContract } from "@/test/oracle/serializers";
import { createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import { ZContractSchema, ZCreateContractRequestSchema, type TCreateContractRequestInput } from "@/lib/schemas";
import { createContract } from "@/lib/services/contracts/create-contract";
import { getContract } from "@/test/oracle/reads";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { actorOf, anonymousAdmin, failure } from "@/test/services/read-fixtures";

let db: TestDatabase;
let w: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  db = await createTestDatabase();
  w = await createWorld();
});
afterAll(() => db.cleanup());

async function createWorld() {
  const prisma = db.prisma;
  const a = await createWorkspace(prisma, { name: "Alpha", companyName: "Alpha Group AB", countryCode: "SE" });
  const b = await createWorkspace(prisma, { name: "Beta" });
  const full = await createTemplate(prisma, {
    name: "Full",
    workspaceIds: [a.id, b.id],
    // Preferred options that are not standard_esign / none: those still win as defaults.
    deliveryChannels: ["email", { name: "sms", preferred: true }, "email_and_sms", "same_device"],
    signMethods: [{ name: "swedish_bankid", preferred: true }, "standard_esign"],
    twoStepMethods: [{ name: "email", preferred: true }, "none", "sms"],
    dataFields: [
      { name: "Start", placeholder: "YYYY-MM-DD", customId: "start" },
      { name: "Term", description: "Months", defaultValue: "12", customId: "term" },
    ],
  });
  // No standard_esign and no "none": the preferred (or first) option is the default.
  const bankId = await createTemplate(prisma, {
    name: "BankID",
    workspaceIds: [a.id],
    deliveryChannels: ["same_device", { name: "email", preferred: true }],
    signMethods: ["norwegian_bankid", { name: "finnish_bankid", preferred: true }],
    twoStepMethods: ["sms", { name: "email", preferred: true }],
  });
  const onlyB = await createTemplate(prisma, { workspaceIds: [b.id] });
  const unassigned = await createTemplate(prisma, { workspaceIds: [] });
  const editor = await createUser(prisma, {
    name: "Eddie Editor",
    title: "Account Executive",
    phoneNumber: "+46701234567",
    memberships: [{ workspaceId: a.id, role: "editor" }],
  });
  const viewer = await createUser(prisma, { memberships: [{ workspaceId: a.id, role: "viewer" }] });
  const outsider = await createUser(prisma, { memberships: [{ workspaceId: b.id, role: "editor" }] });
  const admin = await createUser(prisma, { isAdmin: true });
  return {
    workspaces: { a, b },
    templates: { full, bankId, onlyB, unassigned },
    users: { editor },
    actors: {
      editor: await actorOf(prisma, editor),
      viewer: await actorOf(prisma, viewer),
      outsider: await actorOf(prisma, outsider),
      admin: await actorOf(prisma, admin),
    },
  };
}

/** Parsed like the route does, so defaults and trimming apply. */
function create(input: Partial<TCreateContractRequestInput>, actor: Actor = w.actors.editor) {
  const request = ZCreateContractRequestSchema.parse({ workspace_id: w.workspaces.a.id, template_id: w.templates.full.id, ...input });
  return createContract({ db: db.prisma, actor, request, requestId: "test-request" });
}

/** Row counts of everything a create writes, to prove a refused or failed one wrote nothing. */
async function counts() {
  const p = db.prisma;
  return {
    contracts: await p.contract.count(),
    parties: await p.party.count(),
    participants: await p.participant.count(),
    dataFields: await p.contractDataField.count(),
    audit: await p.auditEvent.count(),
  };
}

const counterparties = [
  {
    type: "company",
    name: "Buyer AB",
    country_code: "no",
    identification_number: "556677-8899",
    participants: [
      { name: "Ann", email: "ann@example.org", delivery_channel: "email", signatory: true, _permissions: { "contract:update": true } },
      { name: "Bo", phone_number: "+4670111222", delivery_channel: "sms", title: "CFO" },
    ],
  },
  {
    type: "individual",
    name: "ignored",
    identification_number: "ignored",
    participant: { name: "Cecilia", email: "cecilia@example.org", identification_number: "19800101-1234", delivery_channel: "email" },
  },
] satisfies TCreateContractRequestInput["parties"];

describe("creating a contract", () => {
  it("answers the contract exactly as reading it back gives it (ids in the order sent, every column)", async () => {
    const row = await create({ name: "Read back", parties: counterparties });
    const read = await getContract({ db: db.prisma, actor: w.actors.editor, contractId: row.id });
    const answer = (r: typeof row) => serializeContract(r, { actor: w.actors.editor, origin: "https://x.example" });
    expect(answer(row)).toEqual(answer(read));
    expect(row.parties.map((p) => p.name)).toEqual(["Alpha Group AB", "Buyer AB", "Cecilia"]);
    expect(row.parties[1]!.participants.map((p) => p.name)).toEqual(["Ann", "Bo"]);
    expect(row.stateUpdatedAt).toEqual(row.createdAt);
  });

  it("writes the contract, the owner side with the caller as organizer, the counterparties and data fields", async () => {
    const row = await create({ name: "  Deal  ", parties: counterparties });
    expect(row).toMatchObject({ name: "Deal", state: "draft", workspaceId: w.workspaces.a.id, templateId: w.templates.full.id });

    const [own, company, individual] = row.parties;
    expect(own).toMatchObject({ type: "company", myParty: true, name: "Alpha Group AB", countryCode: "SE", updatedAt: null });
    expect(own!.participants).toHaveLength(1);
    expect(own!.participants[0]).toMatchObject({
      userId: w.users.editor.id,
      name: "Eddie Editor",
      email: w.users.editor.email,
      title: "Account Executive",
      phoneNumber: "+46701234567",
      organizer: true,
      signatory: false,
      canUpdateContract: true,
      deliveryChannel: "email",
      signMethod: "standard_esign",
    });

    expect(company).toMatchObject({ type: "company", myParty: false, name: "Buyer AB", countryCode: "NO", identificationNumber: "556677-8899" });
    expect(company!.participants.map((p) => [p.name, p.deliveryChannel, p.signatory, p.canUpdateContract, p.organizer, p.userId])).toEqual([
      ["Ann", "email", true, true, false, null],
      ["Bo", "sms", false, false, false, null],
    ]);
    for (const p of [...company!.participants, ...individual!.participants]) {
      expect(p).toMatchObject({ signState: "undecided", signStateUpdatedAt: null, deliveryStatus: "not_sent", version: 1 });
    }
    // An individual party is its participant: the party's own name and number are ignored.
    expect(individual).toMatchObject({ type: "individual", name: "Cecilia", identificationNumber: "19800101-1234", countryCode: "" });

    const fields = await db.prisma.contractDataField.findMany({ where: { contractId: row.id }, orderBy: { id: "asc" } });
    expect(fields.map((f) => [f.name, f.description, f.placeholder, f.customId, f.value])).toEqual([
      ["Start", "", "YYYY-MM-DD", "start", ""],
      ["Term", "Months", "", "term", "12"],
    ]);

    const events = await db.prisma.auditEvent.findMany({ where: { contractId: row.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: "contract.create",
      entityType: "contract",
      entityId: row.id,
      actorUserId: w.users.editor.id,
      via: "api_token",
      requestId: "test-request",
      after: { name: "Deal", state: "draft", workspace_id: w.workspaces.a.id, template_id: w.templates.full.id },
    });

    // What the route answers: the shapes of spec 2.2/2.3, participants without _links.
    const body = ZContractSchema.parse(serializeContract(row, { actor: w.actors.editor, origin: "http://test" }));
    expect(body.parties[0]).toMatchObject({ type: "company", my_party: true });
    const organizer = body.parties[0]!.type === "company" ? body.parties[0]!.participants[0] : undefined;
    expect(organizer).toMatchObject({ my_participant: true, organizer: true });
    expect(organizer).not.toHaveProperty("_links");
    expect(body.parties[2]).toMatchObject({ type: "individual", participant: { name: "Cecilia", my_participant: false } });
  });

  it("names the contract after the template and needs no parties", async () => {
    for (const parties of [undefined, []]) {
      const row = await create({ parties });
      expect(row.name).toBe("Full");
      expect(row.parties).toHaveLength(1);
    }
  });

  it("gives the anonymous admin's contract an owner side without participants", async () => {
    const row = await create({ parties: counterparties }, anonymousAdmin);
    expect(row.parties[0]).toMatchObject({ myParty: true, participants: [] });
    expect(row.parties).toHaveLength(3);
    const contract = await db.prisma.contract.findUniqueOrThrow({ where: { id: row.id } });
    expect(contract.createdById).toBeNull();
    const event = await db.prisma.auditEvent.findFirstOrThrow({ where: { contractId: row.id } });
    expect(event).toMatchObject({ actorUserId: null, apiTokenId: anonymousAdmin.apiTokenId });
  });

  it("lets an admin create in any workspace", async () => {
    const row = await create({ workspace_id: w.workspaces.b.id, template_id: w.templates.onlyB.id }, w.actors.admin);
    expect(row.parties[0]!.participants[0]).toMatchObject({ userId: w.actors.admin.userId, organizer: true });
  });
});

describe("defaults for omitted options", () => {
  it("takes standard_esign and none when the template offers them, else the preferred channel", async () => {
    const row = await create({ parties: [{ type: "individual", participant: { name: "Dag", phone_number: "+4670555666" } }] });
    expect(row.parties[1]!.participants[0]).toMatchObject({ deliveryChannel: "sms", signMethod: "standard_esign", twoStepMethod: "none" });
  });

  it("takes the preferred options when standard_esign and none are not offered", async () => {
    const row = await create({
      template_id: w.templates.bankId.id,
      parties: [{ type: "company", name: "Nordic Oy", participants: [{ name: "Eva", email: "eva@example.org" }] }],
    });
    expect(row.parties[1]!.participants[0]).toMatchObject({ deliveryChannel: "email", signMethod: "finnish_bankid", twoStepMethod: "email" });
    // The organizer signs with the template's default method too.
    expect(row.parties[0]!.participants[0]!.signMethod).toBe("finnish_bankid");
  });

  it("gives a signatory sent without _permissions the contract:update it needs", async () => {
    const row = await create({ parties: [{ type: "individual", participant: { name: "Fia", phone_number: "+4670555666", signatory: true } }] });
    expect(row.parties[1]!.participants[0]).toMatchObject({ signatory: true, canUpdateContract: true });
  });
});

describe("refusals", () => {
  it("answers 404 for a workspace or template out of reach or missing, and writes nothing", async () => {
    const before = await counts();
    expect(await failure(create({ workspace_id: 2_147_483_647 }))).toMatchObject({ status: 404, problems: { workspace_id: expect.any(Array) } });
    expect(await failure(create({ workspace_id: w.workspaces.b.id }))).toMatchObject({ status: 404, key: "resource_not_found" });
    expect(await failure(create({ template_id: 2_147_483_647 }))).toMatchObject({ status: 404, problems: { template_id: expect.any(Array) } });
    expect(await failure(create({ template_id: w.templates.onlyB.id }))).toMatchObject({ status: 404 });
    expect(await failure(create({ template_id: w.templates.unassigned.id }))).toMatchObject({ status: 404 });
    expect(await counts()).toEqual(before);
  });

  it("answers 400 template_not_usable for a visible template the workspace may not use", async () => {
    expect(await failure(create({ workspace_id: w.workspaces.b.id, template_id: w.templates.bankId.id }, w.actors.admin))).toMatchObject({
      status: 400,
      key: "template_not_usable",
      problems: { template_id: [expect.any(String)] },
    });
    expect(await failure(create({ template_id: w.templates.unassigned.id }, w.actors.admin))).toMatchObject({ key: "template_not_usable" });
  });

  it("answers 403 for a viewer of the workspace", async () => {
    expect(await failure(create({}, w.actors.viewer))).toMatchObject({ status: 403, key: "role_cannot_write" });
    expect(await failure(create({}, w.actors.outsider))).toMatchObject({ status: 404 });
  });

  it("collects every participant problem of every party into one 400, writing nothing", async () => {
    const before = await counts();
    const result = await failure(
      create({
        parties: [
          { type: "company", name: "A", participants: [{ name: "ok", email: "ok@example.org", delivery_channel: "email" }, { name: "no mail", delivery_channel: "email" }] },
          { type: "company", name: "B", participants: [{ name: "bad option", email: "x@example.org", delivery_channel: "none", sign_method: "sms" }] },
          { type: "individual", participant: { name: "no phone", delivery_channel: "sms", signatory: true, _permissions: { "contract:update": false } } },
        ],
      }),
    );
    expect(result).toMatchObject({ status: 400, key: "option_not_offered" });
    expect(result.problems).toEqual({
      "parties.0.participants.1.email": ["required when delivery_channel is email"],
      "parties.1.participants.0.delivery_channel": [expect.stringContaining("must be one of")],
      "parties.1.participants.0.sign_method": [expect.stringContaining("must be one of")],
      "parties.2.participant.phone_number": ["required when delivery_channel is sms"],
      "parties.2.participant.signatory": [expect.any(String)],
    });
    expect(await counts()).toEqual(before);
  });

  it("uses the most specific code when the problems are of one kind", async () => {
    const missing = await failure(create({ parties: [{ type: "individual", participant: { name: "x", delivery_channel: "email_and_sms", email: "x@example.org" } }] }));
    expect(missing).toMatchObject({ key: "participant_attribute_missing", problems: { "parties.0.participant.phone_number": [expect.any(String)] } });
    const signatory = await failure(
      create({ parties: [{ type: "individual", participant: { name: "x", phone_number: "+4670555666", signatory: true, _permissions: { "contract:update": false } } }] }),
    );
    expect(signatory).toMatchObject({ key: "signatory_requires_contract_update", problems: { "parties.0.participant.signatory": [expect.any(String)] } });
  });

  it("leaves no rows when the transaction fails at its last write", async () => {
    const before = await counts();
    await db.prisma.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION test_fail_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit unavailable'; END $$`,
    );
    await db.prisma.$executeRawUnsafe(`CREATE TRIGGER test_fail_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION test_fail_audit()`);
    try {
      await expect(create({ parties: counterparties })).rejects.toThrow();
    } finally {
      await db.prisma.$executeRawUnsafe(`DROP TRIGGER test_fail_audit ON audit_events`);
    }
    expect(await counts()).toEqual(before);
  });
});
