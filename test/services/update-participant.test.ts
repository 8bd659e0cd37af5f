import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import type { Actor } from "@/lib/domain/actor";
import { PARTICIPANT_SELECT } from "@/lib/services/participants/participant-row";
import type { TContractState } from "@/lib/domain/enums";
import { createApiToken, createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import type { TUpdateParticipantRequest } from "@/lib/schemas";
import { updateParticipant } from "@/lib/services/participants/update-participant";
import { updateTargetsPreload } from "@/lib/services/participants/update-participant";
import { participantEtag } from "@/lib/api/json/participant";
import { updateParticipantAnswer } from "@/lib/api/update-participant-answer";
import { serializeParticipant } from "@/test/oracle/serializers";
import { authenticateApiRequest, authenticateSessionUser } from "@/lib/api/auth";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "@/test/helpers/db";
import { actorOf, anonymousAdmin, failure } from "@/test/services/read-fixtures";

let db: TestDatabase;
let w: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  db = await createTestDatabase();
  w = await createWorld();
  tokenId = (await createApiToken(db.prisma, { name: "t", token: TOKEN })).record.id;
});
afterAll(() => db.cleanup());

async function createWorld() {
  const prisma = db.prisma;
  const a = await createWorkspace(prisma, { name: "Alpha" });
  const b = await createWorkspace(prisma, { name: "Beta" });
  // Offers much: two-step by e-mail or SMS, several channels, two sign methods.
  const full = await createTemplate(prisma, {
    workspaceIds: [a.id, b.id],
    deliveryChannels: ["email", "sms", "email_and_sms", "same_device"],
    signMethods: ["standard_esign", "swedish_bankid"],
    twoStepMethods: ["none", "email", "sms"],
  });
  // Offers little, and not the e-mail delivery the organizer was given.
  const smsOnly = await createTemplate(prisma, { workspaceIds: [a.id], deliveryChannels: ["sms"], signMethods: ["swedish_bankid"] });
  // Offers e-mail delivery and no two-step method.
  const emailOnly = await createTemplate(prisma, { workspaceIds: [a.id], deliveryChannels: ["email"], signMethods: ["standard_esign"], twoStepMethods: ["none"] });
  const editor = await createUser(prisma, { memberships: [{ workspaceId: a.id, role: "editor" }] });
  const viewer = await createUser(prisma, { memberships: [{ workspaceId: a.id, role: "viewer" }] });
  const outsider = await createUser(prisma, { memberships: [{ workspaceId: b.id, role: "editor" }] });
  const admin = await createUser(prisma, { isAdmin: true });
  return {
    workspaces: { a, b },
    templates: { full, smsOnly, emailOnly },
    users: { editor },
    actors: {
      editor: await actorOf(prisma, editor),
      viewer: await actorOf(prisma, viewer),
      outsider: await actorOf(prisma, outsider),
      admin: await actorOf(prisma, admin),
    },
  };
}

/** A fresh contract in workspace Alpha: owner side (the editor), a company of two, an individual. */
async function contractWorld(options: { state?: TContractState; templateId?: number } = {}) {
  const contract = await createContract(db.prisma, {
    workspaceId: w.workspaces.a.id,
    templateId: options.templateId ?? w.templates.full.id,
    state: options.state,
    owner: w.users.editor,
    counterparties: [
      { type: "company", name: "Buyer AB", participants: [{ name: "Ann", email: "ann@example.org" }, { name: "Bo", signatory: false }] },
      { type: "individual", participant: { name: "Cecilia", identificationNumber: "19800101-1234", email: "cecilia@example.org" } },
    ],
  });
  const parties = await db.prisma.party.findMany({
    where: { contractId: contract.id },
    include: { participants: { orderBy: { id: "asc" } } },
    orderBy: { id: "asc" },
  });
  const [own, company, individual] = parties as [(typeof parties)[0], (typeof parties)[0], (typeof parties)[0]];
  const at = (party: typeof own, index = 0) => ({ contractId: contract.id, partyId: party.id, participantId: party.participants[index]!.id });
  return {
    contract,
    parties: { own, company, individual },
    paths: { organizer: at(own), ann: at(company, 0), bo: at(company, 1), cecilia: at(individual) },
  };
}

type TPath = { contractId: number; partyId: number; participantId: number };

let readWay: "preloaded" | "read" = "read";
/** The id of the test's API token (`TOKEN`). */
let tokenId: number;
const TOKEN = "update-participant-token-0123456789";

/** The targets as the route preloads them, read with `actor`'s credentials. */
async function preloadAs(actor: Actor, path: TPath): Promise<unknown> {
  const preload = updateTargetsPreload(path);
  if (actor.kind === "user") return (await authenticateSessionUser(db.prisma, actor.userId, preload))!.preloaded;
  const request = new Request("http://localhost/v1", { headers: { "x-service-api-token": TOKEN } });
  return (await authenticateApiRequest(request, db.prisma, preload)).preloaded;
}

/** The origin the answer's links are written under. */
const ORIGIN = "http://localhost";

/**
 * As the route does it (`updateParticipantAnswer`), in the "preloaded" way too: the targets read
 * with the credentials, `If-Match` turned into versions, and the answer (written by the write
 * statement, or read when nothing changed), which must equal the oracle (`serializeParticipant`)
 * to the byte.
 */
async function update(path: TPath, changes: TUpdateParticipantRequest, options: { actor?: Actor; ifMatch?: string | null } = {}) {
  const actor = options.actor ?? w.actors.editor;
  const preloaded = readWay === "preloaded" ? { preloaded: await preloadAs(actor, path) } : {};
  const { participant, answer } = await updateParticipantAnswer({
    db: db.prisma,
    actor,
    origin: ORIGIN,
    ...path,
    ifMatch: options.ifMatch ?? null,
    changes,
    requestId: "test-request",
    ...preloaded,
  });
  if (!(expect.getState().currentTestName ?? "").includes("> atomicity and concurrency >")) {
    const oracle = serializeParticipant(participant, { actor, links: { origin: ORIGIN, contractId: path.contractId, partyId: path.partyId } });
    expect(answer).toBe(JSON.stringify(oracle));
  }
  return participant;
}

const participantRow = (id: number) => db.prisma.participant.findUniqueOrThrow({ where: { id } });
const auditEvents = (participantId: number) =>
  db.prisma.auditEvent.findMany({ where: { entityType: "participant", entityId: participantId }, orderBy: { id: "asc" } });

// Every case runs both ways an update can read its targets: preloaded with the caller's credentials
// (as the route does), and read by the update itself. A participant changed in between sends the
// update on to the locked way (the concurrency cases).
describe.each(["preloaded", "read"] as const)("reading the targets %s", (way) => {
  beforeAll(() => {
    readWay = way;
  });

  describe("finding the participant", () => {
    it("answers 404 for a contract out of the caller's reach, and for one that does not exist", async () => {
      const { paths } = await contractWorld();
      expect(await failure(update(paths.ann, { title: "CEO" }, { actor: w.actors.outsider }))).toMatchObject({ status: 404, key: "resource_not_found" });
      expect(await failure(update({ ...paths.ann, contractId: 2_147_483_647 }, { title: "CEO" }))).toMatchObject({ status: 404 });
    });

    it("answers 404 when the participant is not of that party, or the party not of that contract", async () => {
      const one = await contractWorld();
      const two = await contractWorld();
      expect(await failure(update({ ...one.paths.ann, participantId: one.paths.cecilia.participantId }, { title: "x" }))).toMatchObject({ status: 404 });
      expect(await failure(update({ ...one.paths.ann, contractId: two.contract.id }, { title: "x" }))).toMatchObject({ status: 404 });
      expect(await failure(update({ ...one.paths.ann, participantId: 2_147_483_647 }, { title: "x" }))).toMatchObject({ status: 404 });
      expect((await participantRow(one.paths.cecilia.participantId)).title).toBe("");
    });
  });

  describe("permissions and contract state", () => {
    it("refuses a viewer with 403 and changes nothing", async () => {
      const { paths } = await contractWorld();
      expect(await failure(update(paths.ann, { title: "CEO" }, { actor: w.actors.viewer }))).toMatchObject({ status: 403, key: "role_cannot_write" });
      expect((await participantRow(paths.ann.participantId)).title).toBe("");
    });

    it("refuses a viewer with 403 before looking at the state: a viewer learns nothing from it", async () => {
      const { paths } = await contractWorld({ state: "signed" });
      expect(await failure(update(paths.ann, { title: "CEO" }, { actor: w.actors.viewer }))).toMatchObject({ status: 403, key: "role_cannot_write" });
    });

    it("lets admins and the anonymous admin update; the audit event says who", async () => {
      const { paths } = await contractWorld();
      await update(paths.ann, { title: "by admin" }, { actor: w.actors.admin });
      await update(paths.ann, { title: "by anonymous" }, { actor: anonymousAdmin });
      const events = await auditEvents(paths.ann.participantId);
      expect(events.map((e) => [e.actorUserId, e.apiTokenId, e.via])).toEqual([
        [w.actors.admin.userId, null, "api_token"],
        [null, anonymousAdmin.apiTokenId, "api_token"],
      ]);
    });

    it.each(["signed", "declined", "overdue"] as const)("answers 409 on a %s contract", async (state) => {
      const { paths } = await contractWorld({ state });
      expect(await failure(update(paths.ann, { title: "CEO" }))).toMatchObject({ status: 409, key: "contract_not_editable" });
    });

    it("allows changes while the contract is pending", async () => {
      const { paths } = await contractWorld({ state: "pending" });
      expect((await update(paths.ann, { title: "CEO" })).title).toBe("CEO");
    });
  });

  describe("If-Match", () => {
    it("accepts the current ETag (and *), and answers 412 with the current ETag once it is stale", async () => {
      const { paths } = await contractWorld();
      const first = await participantRow(paths.ann.participantId);
      const updated = await update(paths.ann, { title: "one" }, { ifMatch: participantEtag(first) });
      expect(updated.version).toBe(first.version + 1);
      expect(await failure(update(paths.ann, { title: "two" }, { ifMatch: participantEtag(first) }))).toMatchObject({
        status: 412,
        key: "stale_if_match",
        headers: { ETag: participantEtag(updated) },
      });
      expect((await update(paths.ann, { title: "three" }, { ifMatch: `"nope", ${participantEtag(updated)}` })).title).toBe("three");
      expect((await update(paths.ann, { title: "four" }, { ifMatch: "*" })).title).toBe("four");
    });

    it("compares strongly: a weak or empty tag never matches", async () => {
      const { paths } = await contractWorld();
      const row = await participantRow(paths.ann.participantId);
      expect(await failure(update(paths.ann, { title: "x" }, { ifMatch: `W/${participantEtag(row)}` }))).toMatchObject({ status: 412 });
      expect(await failure(update(paths.ann, { title: "x" }, { ifMatch: "" }))).toMatchObject({ status: 412 });
    });

    it("is checked before the role, the state and the body rules", async () => {
      const { paths } = await contractWorld({ state: "signed" });
      const stale = '"p0-v0"';
      expect(await failure(update(paths.ann, { title: "x" }, { actor: w.actors.viewer, ifMatch: stale }))).toMatchObject({ status: 412 });
      expect(await failure(update(paths.ann, { title: "x" }, { ifMatch: stale }))).toMatchObject({ status: 412 });
      const draft = await contractWorld();
      expect(await failure(update(draft.paths.ann, { sign_method: "sms" }, { ifMatch: stale }))).toMatchObject({ status: 412 });
    });
  });

  describe("what changes", () => {
    it("changes nothing for {}: same updated_time, version and no audit event", async () => {
      const { paths } = await contractWorld();
      const before = await participantRow(paths.ann.participantId);
      const answered = await update(paths.ann, {});
      expect(answered.updatedAt).toEqual(before.updatedAt);
      expect(answered.version).toBe(before.version);
      expect(await participantRow(paths.ann.participantId)).toEqual(before);
      expect(await auditEvents(paths.ann.participantId)).toHaveLength(0);
    });

    it("changes nothing when every value sent is the current one", async () => {
      const { paths } = await contractWorld();
      const before = await participantRow(paths.ann.participantId);
      await update(paths.ann, { name: before.name, email: before.email.toUpperCase(), signatory: before.signatory });
      await update(paths.ann, { name: before.name, title: before.title, _permissions: { "contract:update": before.canUpdateContract } });
      expect(await participantRow(paths.ann.participantId)).toEqual(before);
      expect(await auditEvents(paths.ann.participantId)).toEqual([]);
    });

    it("writes and audits only what changes when some values sent are the current ones", async () => {
      const { paths } = await contractWorld();
      const before = await participantRow(paths.ann.participantId);
      await update(paths.ann, { name: before.name, title: "Counsel" });
      expect(await participantRow(paths.ann.participantId)).toMatchObject({ name: before.name, title: "Counsel", version: before.version + 1 });
      expect((await auditEvents(paths.ann.participantId)).map((e) => [e.before, e.after])).toEqual([[{ title: before.title }, { title: "Counsel" }]]);
    });

    it("writes the changed attributes, bumps version and updated_time, touches the party, audits before/after", async () => {
      const { paths, parties } = await contractWorld();
      const before = await participantRow(paths.bo.participantId);
      const updated = await update(paths.bo, {
        name: "Bo Berg",
        title: "CFO",
        phone_number: "+46701234567",
        delivery_channel: "email_and_sms",
        two_step_authentication_method: "sms",
        sign_method: "swedish_bankid",
        signatory: true,
        _permissions: { "contract:update": true },
        identification_number: "556677-8899",
      });
      expect(updated).toMatchObject({
        name: "Bo Berg",
        title: "CFO",
        phoneNumber: "+46701234567",
        deliveryChannel: "email_and_sms",
        twoStepMethod: "sms",
        signMethod: "swedish_bankid",
        signatory: true,
        canUpdateContract: true,
        identificationNumber: "556677-8899",
        version: before.version + 1,
      });
      expect(updated.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
      const party = await db.prisma.party.findUniqueOrThrow({ where: { id: parties.company.id } });
      expect(party.updatedAt).toEqual(updated.updatedAt);
      expect(party.name).toBe("Buyer AB"); // a company is not named after its people

      const [event, ...more] = await auditEvents(paths.bo.participantId);
      expect(more).toHaveLength(0);
      expect(event).toMatchObject({
        action: "participant.update",
        contractId: paths.bo.contractId,
        actorUserId: w.actors.editor.userId,
        requestId: "test-request",
        before: { name: before.name, title: "", signatory: false, _permissions: { "contract:update": false } },
        after: { name: "Bo Berg", title: "CFO", signatory: true, _permissions: { "contract:update": true } },
      });
      // Only what changed is recorded.
      expect(Object.keys(event!.after as object).sort()).toEqual(
        [
          "_permissions",
          "delivery_channel",
          "identification_number",
          "name",
          "phone_number",
          "sign_method",
          "signatory",
          "title",
          "two_step_authentication_method",
        ].sort(),
      );
    });

    it("keeps an individual party's name and identification number equal to its participant's", async () => {
      const { paths, parties } = await contractWorld();
      await update(paths.cecilia, { name: "Cecilia Dahl", identification_number: "19800101-9999" });
      expect(await db.prisma.party.findUniqueOrThrow({ where: { id: parties.individual.id } })).toMatchObject({
        name: "Cecilia Dahl",
        identificationNumber: "19800101-9999",
      });
      await update(paths.cecilia, { title: "Dr" });
      expect((await db.prisma.party.findUniqueOrThrow({ where: { id: parties.individual.id } })).name).toBe("Cecilia Dahl");
    });
  });

  describe("the participant rules", () => {
    it("refuses an owner-side participant's e-mail change, but not the same e-mail or other attributes", async () => {
      const { paths } = await contractWorld();
      const organizer = await participantRow(paths.organizer.participantId);
      expect(await failure(update(paths.organizer, { email: "someone-else@example.com" }))).toMatchObject({
        status: 400,
        key: "owner_participant_email_immutable",
        problems: { email: [expect.any(String)] },
      });
      const updated = await update(paths.organizer, { email: organizer.email, title: "Boss" });
      expect(updated).toMatchObject({ email: organizer.email, title: "Boss" });
      // A counterparty's e-mail is theirs to change.
      expect((await update(paths.ann, { email: "ann.new@example.org" })).email).toBe("ann.new@example.org");
    });

    it("refuses options the template does not offer, naming each", async () => {
      const { paths } = await contractWorld();
      expect(await failure(update(paths.ann, { delivery_channel: "none", sign_method: "sms", two_step_authentication_method: "none" }))).toMatchObject({
        status: 400,
        key: "option_not_offered",
        problems: { delivery_channel: [expect.stringContaining("email, sms")], sign_method: [expect.any(String)] },
      });
    });

    it.each([
      [{ delivery_channel: "none" }, "full"],
      [{ sign_method: "sms" }, "full"],
      [{ two_step_authentication_method: "email" }, "emailOnly"],
    ] as const)("refuses %o alone when the template does not offer it", async (change, template) => {
      // Ann has an e-mail address, so what the option would require is there: only the offer is missing.
      const { paths } = await contractWorld({ templateId: w.templates[template].id });
      const before = await participantRow(paths.ann.participantId);
      const attribute = Object.keys(change)[0]!;
      expect(await failure(update(paths.ann, change))).toMatchObject({ status: 400, key: "option_not_offered", problems: { [attribute]: [expect.any(String)] } });
      expect(await participantRow(paths.ann.participantId)).toEqual(before);
    });

    it("keeps an option chosen earlier that the template no longer offers, while other attributes change", async () => {
      // The organizer got e-mail delivery, which this template does not offer.
      const { paths } = await contractWorld({ templateId: w.templates.smsOnly.id });
      expect((await update(paths.organizer, { title: "Boss" })).title).toBe("Boss");
      expect(await failure(update(paths.organizer, { delivery_channel: "same_device" }))).toMatchObject({ key: "option_not_offered" });
    });

    it("requires what the chosen channel and two-step method need, on the participant as it will be", async () => {
      const { paths } = await contractWorld();
      // Ann has an e-mail but no phone number.
      expect(await failure(update(paths.ann, { delivery_channel: "sms" }))).toMatchObject({
        status: 400,
        key: "participant_attribute_missing",
        problems: { phone_number: ["required when delivery_channel is sms"] },
      });
      expect(await failure(update(paths.ann, { email: "" }))).toMatchObject({
        key: "participant_attribute_missing",
        problems: { email: ["required when delivery_channel is email"] },
      });
      expect(await failure(update(paths.ann, { two_step_authentication_method: "sms" }))).toMatchObject({
        problems: { phone_number: ["required when two_step_authentication_method is sms"] },
      });
      // Given in the same request, it is there afterwards: fine.
      expect(await update(paths.ann, { delivery_channel: "sms", phone_number: "+4670123456" })).toMatchObject({ deliveryChannel: "sms" });
      // Now the e-mail may go, unless the two-step method needs it.
      expect(await failure(update(paths.ann, { email: "", two_step_authentication_method: "email" }))).toMatchObject({
        problems: { email: ["required when two_step_authentication_method is email"] },
      });
      expect(await update(paths.ann, { email: "" })).toMatchObject({ email: "" });
    });

    it("requires contract:update of a signatory, however it would be lost", async () => {
      const { paths } = await contractWorld();
      // Bo is neither signatory nor may update.
      expect(await failure(update(paths.bo, { signatory: true }))).toMatchObject({
        status: 400,
        key: "signatory_requires_contract_update",
        problems: { signatory: [expect.any(String)] },
      });
      // Ann is a signatory: taking the permission away is the same violation.
      expect(await failure(update(paths.ann, { _permissions: { "contract:update": false } }))).toMatchObject({
        key: "signatory_requires_contract_update",
      });
      expect(await update(paths.ann, { signatory: false, _permissions: { "contract:update": false } })).toMatchObject({ signatory: false });
    });

    it("answers one code by precedence and lists every problem", async () => {
      const { paths } = await contractWorld();
      const result = await failure(update(paths.bo, { sign_method: "sms", email: "", signatory: true }));
      expect(result.key).toBe("option_not_offered");
      expect(Object.keys(result.problems ?? {}).sort()).toEqual(["email", "sign_method", "signatory"]);
      const owner = await failure(update(paths.organizer, { email: "", signatory: true, _permissions: { "contract:update": false } }));
      expect(owner.key).toBe("owner_participant_email_immutable");
      expect(Object.keys(owner.problems ?? {}).sort()).toEqual(["email", "signatory"]);
      expect(await participantRow(paths.bo.participantId)).toMatchObject({ email: expect.stringContaining("@"), signatory: false });
    });
  });

  describe("atomicity and concurrency", () => {
    it("leaves nothing half-written when the transaction fails at its last write", async () => {
      const { paths, parties } = await contractWorld();
      const before = await participantRow(paths.cecilia.participantId);
      await db.prisma.$executeRawUnsafe(
        `CREATE OR REPLACE FUNCTION test_fail_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit unavailable'; END $$`,
      );
      await db.prisma.$executeRawUnsafe(`CREATE TRIGGER test_fail_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION test_fail_audit()`);
      try {
        await expect(update(paths.cecilia, { name: "Never" })).rejects.toThrow();
      } finally {
        await db.prisma.$executeRawUnsafe(`DROP TRIGGER test_fail_audit ON audit_events`);
      }
      expect(await participantRow(paths.cecilia.participantId)).toEqual(before);
      expect((await db.prisma.party.findUniqueOrThrow({ where: { id: parties.individual.id } })).name).toBe("Cecilia");
    });

    it("keeps both changes when two clients update different attributes at once", async () => {
      const { paths } = await contractWorld();
      await Promise.all([update(paths.ann, { title: "CEO" }), update(paths.ann, { phone_number: "+46709999999" })]);
      expect(await participantRow(paths.ann.participantId)).toMatchObject({ title: "CEO", phoneNumber: "+46709999999" });
    });

    it("serializes 50 parallel mixed updates: the final state and the audit log agree, nothing is lost", async () => {
      const { paths } = await contractWorld();
      const start = await participantRow(paths.ann.participantId);
      const changeOf = (i: number): TUpdateParticipantRequest => {
        switch (i % 5) {
          case 0:
            return { name: `Ann ${i}` };
          case 1:
            return { title: `Title ${i}` };
          case 2:
            return { phone_number: `+4670${String(1_000_000 + i)}` };
          case 3:
            return { identification_number: `ID-${i}` };
          default:
            return { email: `ann-${i}@example.org` };
        }
      };
      const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => update(paths.ann, changeOf(i))));
      expect(results.filter((r) => r.status === "rejected")).toEqual([]);

      const final = await participantRow(paths.ann.participantId);
      expect(final.version).toBe(start.version + 50);
      const events = await auditEvents(paths.ann.participantId);
      expect(events).toHaveLength(50);
      // Replaying the log in commit order gives the final state.
      const replayed: Record<string, unknown> = {};
      for (const event of events) Object.assign(replayed, event.after);
      expect(replayed).toEqual({
        name: final.name,
        title: final.title,
        phone_number: final.phoneNumber,
        identification_number: final.identificationNumber,
        email: final.email,
      });
      // Each event's `before` is the state the previous writer of that attribute left.
      const last: Record<string, unknown> = {
        name: start.name,
        title: start.title,
        phone_number: start.phoneNumber,
        identification_number: start.identificationNumber,
        email: start.email,
      };
      for (const event of events) {
        for (const [key, value] of Object.entries(event.before as object)) expect(value).toBe(last[key]);
        Object.assign(last, event.after);
      }
    });
  });
});

describe.runIf(testDatabaseKind() === "postgres")("row locks (PostgreSQL only)", () => {
  it("takes the contract's row before the participant's, as signing does: one holding the contract never waits on the participant in a circle", async () => {
    const { paths } = await contractWorld();
    const signer = new pg.Client(db.url);
    await signer.connect();
    try {
      // As signing: the contract's row first.
      await signer.query("BEGIN");
      await signer.query("SELECT id FROM contracts WHERE id = $1 FOR UPDATE", [paths.ann.contractId]);
      const put = updateParticipant({ db: db.prisma, actor: w.actors.editor, ...paths.ann, changes: { title: "Buyer" } as TUpdateParticipantRequest });
      // The update waits for the contract's row...
      await waitUntilBlocked(signer, paths.ann.contractId);
      // ...and holds nothing of the participant's meanwhile, so the signer can take it and finish.
      const free = await signer.query("SELECT id FROM participants WHERE id = $1 FOR UPDATE NOWAIT", [paths.ann.participantId]);
      expect(free.rowCount).toBe(1);
      await signer.query("COMMIT");
      expect((await put).participant.title).toBe("Buyer");
      const contract = await db.prisma.contract.findUniqueOrThrow({ where: { id: paths.ann.contractId } });
      expect(contract.updatedAt.getTime()).toBeGreaterThan(contract.createdAt.getTime());
    } finally {
      await signer.end();
    }
  });
});

/** Until another session waits for a lock (the update, on the contract's row the signer holds). */
async function waitUntilBlocked(client: pg.Client, contractId: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()");
    if (rows[0].n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no session waited for contract ${contractId}'s row`);
}
