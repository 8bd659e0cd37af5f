import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { templateTypeAnswers } from "@/lib/api/json/template-type";
import { isoTime, serializeAuditEvent, serializeTemplate, serializeUser, serializeWorkspace } from "@/lib/api/serializers";
import { serializeContract, serializeContractListItem, serializeDataField, serializeParticipant, serializeParty, serializeTemplateType } from "@/test/oracle/serializers";
import { participantEtag } from "@/lib/api/json/participant";
import {
  ZContractListItemSchema,
  ZContractSchema,
  ZDataFieldSchema,
  ZParticipantSchema,
  ZPartySchema,
  ZTemplateSchema,
  ZTemplateTypeSchema,
  ZUserSchema,
  ZWorkspaceSchema,
  type TContractListQuery,
} from "@/lib/schemas";
import { getContract } from "@/test/oracle/reads";
import { listContracts } from "@/test/oracle/reads";
import { getTemplate } from "@/lib/services/templates/get-template";
import { listUsers } from "@/lib/services/users/list-users";
import { listWorkspaces } from "@/lib/services/workspaces/list-workspaces";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { anonymousAdmin, createReadWorld, type TReadWorld } from "@/test/services/read-fixtures";

const ORIGIN = "https://contracts.example.com";
let db: TestDatabase;
let w: TReadWorld;
beforeAll(async () => {
  db = await createTestDatabase();
  w = await createReadWorld(db.prisma);
});
afterAll(() => db.cleanup());

describe("isoTime", () => {
  it("answers UTC with milliseconds and a numeric offset", () => {
    expect(isoTime(new Date("2024-05-01T09:30:00Z"))).toBe("2024-05-01T09:30:00.000+00:00");
    expect(isoTime(new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 7)))).toBe("1999-12-31T23:59:59.007+00:00");
  });
});

describe("contract", () => {
  it("serializes the full contract in the spec's shapes, with absolute links", async () => {
    const row = await getContract({ db: db.prisma, actor: w.actors.editor, contractId: w.contracts.a.id });
    const body = ZContractSchema.parse(serializeContract(row, { actor: w.actors.editor, origin: ORIGIN }));
    expect(body._links).toEqual({
      self: { href: `${ORIGIN}/v1/contracts/${row.id}` },
      parties: { href: `${ORIGIN}/v1/contracts/${row.id}/parties` },
      data_fields: { href: `${ORIGIN}/v1/contracts/${row.id}/data_fields` },
    });
    const [owner, company, individual] = body.parties;
    // The owner-side participant is the calling editor: my_participant for them, nobody else.
    expect(owner).toMatchObject({ type: "company", my_party: true, _private_ownerside: { updated_time: null } });
    if (owner?.type !== "company" || company?.type !== "company" || individual?.type !== "individual") throw new Error("shape");
    expect(owner.participants.map((p) => [p.organizer, p.my_participant])).toEqual([[true, true]]);
    expect(company.participants.map((p) => p.my_participant)).toEqual([false, false]);
    expect(company).toMatchObject({ name: "Buyer AB", country_code: "SE", identification_number: "556677-8899" });
    expect(company.participants[1]).toMatchObject({ name: "Bo", signatory: false, _permissions: { "contract:update": false } });
    // Individual: one `participant`, no `participants`; the party's name and number are the participant's.
    expect(individual).not.toHaveProperty("participants");
    expect(individual).toMatchObject({ name: "Cecilia", identification_number: "19800101-1234" });
    expect(individual.participant).toMatchObject({ name: "Cecilia", identification_number: "19800101-1234" });
    // Inside a contract neither parties nor participants carry links.
    expect(individual).not.toHaveProperty("_links");
    expect(individual.participant).not.toHaveProperty("_links");
  });

  it("serializes a list item with a parties summary", async () => {
    const query = { limit: 100, offset: 0, sort: "id" } satisfies TContractListQuery;
    const { rows } = await listContracts({ db: db.prisma, actor: anonymousAdmin, query });
    const item = ZContractListItemSchema.parse(serializeContractListItem(rows[0]!, { origin: ORIGIN }));
    expect(item.parties.map((p) => p.type)).toEqual(["company", "company", "individual"]);
    for (const party of item.parties) {
      expect(party).not.toHaveProperty("participants");
      expect(party).not.toHaveProperty("participant");
    }
  });
});

describe("party and participant", () => {
  it("adds _links to a party and a participant on their own routes", async () => {
    const row = await getContract({ db: db.prisma, actor: anonymousAdmin, contractId: w.contracts.a.id });
    const partyRow = row.parties[1]!;
    const party = ZPartySchema.parse(serializeParty(partyRow, { actor: anonymousAdmin, links: { origin: ORIGIN } }));
    expect(party._links).toEqual({
      self: { href: `${ORIGIN}/v1/contracts/${row.id}/parties/${partyRow.id}` },
      contract: { href: `${ORIGIN}/v1/contracts/${row.id}` },
    });
    const participantRow = partyRow.participants[0]!;
    const links = { origin: ORIGIN, contractId: row.id, partyId: partyRow.id };
    const participant = ZParticipantSchema.parse(serializeParticipant(participantRow, { actor: anonymousAdmin, links }));
    expect(participant._links).toEqual({
      contract: { href: `${ORIGIN}/v1/contracts/${row.id}` },
      party: { href: `${ORIGIN}/v1/contracts/${row.id}/parties/${partyRow.id}` },
      self: { href: `${ORIGIN}/v1/contracts/${row.id}/parties/${partyRow.id}/participants/${participantRow.id}` },
    });
    expect(participant.my_participant).toBe(false);
    expect(participant._private_ownerside).toMatchObject({ first_visited_time: null, last_visited_time: null, visits: 0 });
  });

  it("derives the ETag from id and version", () => {
    expect(participantEtag({ id: 12, version: 3 })).toBe('"p12-v3"');
  });
});

describe("lookups", () => {
  it("serializes workspaces with the caller's contract:create permission", async () => {
    const viewerRows = (await listWorkspaces({ db: db.prisma, actor: w.actors.viewer, pagination: { limit: 100, offset: 0 } })).rows;
    expect(viewerRows.map((r) => ZWorkspaceSchema.parse(serializeWorkspace(r, { actor: w.actors.viewer, origin: ORIGIN }))._permissions)).toEqual([
      { "contract:create": false },
    ]);
    expect(serializeWorkspace(viewerRows[0]!, { actor: w.actors.editor, origin: ORIGIN })._permissions["contract:create"]).toBe(true);
    expect(serializeWorkspace(viewerRows[0]!, { actor: anonymousAdmin, origin: ORIGIN })._permissions["contract:create"]).toBe(true);
    expect(serializeWorkspace(viewerRows[0]!, { actor: anonymousAdmin, origin: ORIGIN })._links.self.href).toBe(`${ORIGIN}/v1/workspaces/${viewerRows[0]!.id}`);
  });

  it("serializes a template with only the workspaces the caller sees", async () => {
    const row = await getTemplate({ db: db.prisma, actor: w.actors.editor, templateId: w.templates.shared.id });
    const templateTypes = await templateTypeAnswers(db.prisma, ORIGIN, [row.templateTypeId!]);
    const mine = ZTemplateSchema.parse(serializeTemplate(row, { actor: w.actors.editor, origin: ORIGIN, templateTypes }));
    expect(mine.workspaces).toEqual([{ id: w.workspaces.a.id, name: "Alpha" }]);
    expect(serializeTemplate(row, { actor: anonymousAdmin, origin: ORIGIN, templateTypes }).workspaces).toHaveLength(2);
    expect(mine.available_options.delivery_channels).toEqual([
      { name: "email", preferred: true, required_participant_attributes: ["email"] },
      { name: "sms", preferred: false, required_participant_attributes: ["phone_number"] },
    ]);
    expect(mine.template_type?._links.self.href).toBe(`${ORIGIN}/v1/template_types/${w.templateType.id}`);
    expect(ZTemplateTypeSchema.parse(serializeTemplateType(w.templateType, { origin: ORIGIN })).name).toBe("NDA");
  });

  it("serializes users and data fields", async () => {
    const users = (await listUsers({ db: db.prisma, actor: anonymousAdmin, pagination: { limit: 100, offset: 0 } })).rows;
    for (const user of users) ZUserSchema.parse(serializeUser(user));
    const field = await db.prisma.contractDataField.findFirstOrThrow({ where: { contractId: w.contracts.a.id } });
    const body = ZDataFieldSchema.parse(serializeDataField(field, { origin: ORIGIN }));
    expect(body).toMatchObject({ name: "Start", placeholder: "YYYY-MM-DD", value: "", _private_ownerside: { custom_id: "start" } });
    expect(body._links.self.href).toBe(`${ORIGIN}/v1/contracts/${w.contracts.a.id}/data_fields/${field.id}`);
  });
});

describe("serializeAuditEvent", () => {
  const base = {
    id: 7, createdAt: new Date("2024-05-01T09:30:00.000Z"), action: "participant.sign", entityType: "participant", entityId: 3,
    actorUserId: null, apiTokenId: null, before: { sign_state: "undecided" }, after: { sign_state: "signed" },
    actorName: null, actorEmail: null, actorUser: null, apiToken: null, signer: null,
  } as const;

  it("a signing link's event names the participant it is about; the system is System", () => {
    expect(serializeAuditEvent({ ...base, via: "signing_link", signer: { id: 3, name: "Ann" } })).toEqual({
      id: 7, created_time: "2024-05-01T09:30:00.000+00:00", action: "participant.sign", entity_type: "participant", entity_id: 3,
      actor: { type: "signer", id: 3, name: "Ann" }, via: "signing_link",
      changes: [{ field: "sign_state", from: "undecided", to: "signed" }],
    });
    expect(serializeAuditEvent({ ...base, action: "contract.sign", entityType: "contract", via: "signing_link" }).actor).toEqual({ type: "signer", id: null, name: "Signer" });
    expect(serializeAuditEvent({ ...base, via: "signing_link", signer: { id: 3, name: "Ann", email: "ann@example.org" } }).actor).toEqual({ type: "signer", id: 3, name: "Ann", email: "ann@example.org" });
    expect(serializeAuditEvent({ ...base, action: "contract.overdue", via: "system" }).actor).toEqual({ type: "system", id: null, name: "System" });
  });
});
