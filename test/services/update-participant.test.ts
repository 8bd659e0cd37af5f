import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { participantEtag, PARTICIPANT_SELECT } from "@/lib/services/participants/participant-row";
import type { TContractState } from "@/lib/domain/enums";
import { createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import type { TUpdateParticipantRequest } from "@/lib/schemas";
import { updateParticipant, updateTargetsPreload, updateWriteAhead, writtenParticipantAnswer } from "@/lib/services/participants/update-participant";
import { serializeParticipant } from "@/lib/api/serializers";
import { authenticateApiRequest, authenticateSessionUser, authStatementSql } from "@/lib/api/auth";
import { hashApiToken } from "@/lib/domain/api-token";
import { SqlParams } from "@/lib/db/sql";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { actorOf, anonymousAdmin } from "@/test/services/read-fixtures";

let db: TestDatabase;
let w: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  db = await createTestDatabase();
  w = await createWorld();
  tokenId = (await db.prisma.apiToken.create({ data: { name: "t", prefix: "upd-p", tokenHash: hashApiToken(TOKEN) } })).id;
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

let readWay: "ahead" | "preloaded" | "locked" = "locked";
/** The id of the test's API token (`TOKEN`). */
let tokenId: number;
/**
 * The tests whose updates were written in the credentials' statement (the "ahead" way). The
 * concurrency tests are left out: on PostgreSQL, a parallel update that changed the version first
 * makes the write-ahead write nothing (by design), so how many go ahead there varies run to run.
 */
const writtenAhead = new Set<string>();
const TOKEN = "update-participant-token-0123456789";

/** The targets as the route preloads them, read with `actor`'s credentials. */
async function preloadAs(actor: Actor, path: TPath): Promise<unknown> {
  const preload = updateTargetsPreload(path);
  if (actor.kind === "user") return (await authenticateSessionUser(db.prisma, actor.userId, preload))!.preloaded;
  const request = new Request("http://localhost/v1", { headers: { "x-service-api-token": TOKEN } });
  return (await authenticateApiRequest(request, db.prisma, preload)).preloaded;
}

/**
 * As the route does it: with the API token (and the actor's e-mail), the targets preloaded and the
 * change written ahead in the same statement when it can be; the update then does the rest.
 */
async function updateAsRoute(path: TPath, changes: TUpdateParticipantRequest, actor: Actor, ifMatch: string | null) {
  const headers: Record<string, string> = { "x-service-api-token": TOKEN, ...(actor.kind === "user" ? { "x-service-user-email": actor.email } : {}) };
  const write = ifMatch === null ? updateWriteAhead(path, changes, "test-request", LINK_BASE) : undefined;
  const found = await authenticateApiRequest(new Request("http://localhost/v1", { headers }), db.prisma, updateTargetsPreload(path), write && { write, admit: () => ({ apiTokenId: tokenId }) });
  const name = expect.getState().currentTestName ?? "";
  if (found.ahead?.written && !name.includes("> atomicity and concurrency >")) writtenAhead.add(name.replace(/^reading the targets ahead > /, ""));
  if (found.ahead?.written != null) return answeredAhead(found.ahead.written, path, found.actor);
  // A statement that wrote ahead preloaded nothing: the route then reads first.
  if (found.ahead) expect(found.preloaded).toBeUndefined();
  return updateParticipant({ db: db.prisma, actor: found.actor, ...path, ifMatch, changes, requestId: "test-request", preloaded: found.preloaded, readFirst: true });
}

/** The origin the write-ahead's links are written under, as the route passes it (`linkBase`). */
const LINK_BASE = "http://localhost";

/**
 * The participant as stored after a write ahead, once its answer is held equal to what the route
 * answers for an update it does itself: `serializeParticipant` with links, to the byte, and the
 * ETag. Only the concurrency tests may find the row changed again since (then not compared).
 */
async function answeredAhead(written: unknown, path: TPath, actor: Actor) {
  const answer = writtenParticipantAnswer(written);
  const row = await db.prisma.participant.findUniqueOrThrow({ where: { id: path.participantId }, select: PARTICIPANT_SELECT });
  if (answer.etag !== participantEtag(row)) {
    expect(expect.getState().currentTestName).toContain("> atomicity and concurrency >");
    return row;
  }
  const serialized = serializeParticipant(row, { actor, links: { origin: LINK_BASE, contractId: path.contractId, partyId: path.partyId } });
  expect(JSON.parse(answer.body)).toEqual(serialized);
  expect(answer.body).toBe(JSON.stringify(serialized));
  return row;
}

async function update(path: TPath, changes: TUpdateParticipantRequest, options: { actor?: Actor; ifMatch?: string | null } = {}) {
  const actor = options.actor ?? w.actors.editor;
  if (readWay === "ahead") return updateAsRoute(path, changes, actor, options.ifMatch ?? null);
  return updateParticipant({
    db: db.prisma,
    actor,
    ...path,
    ifMatch: options.ifMatch ?? null,
    changes,
    requestId: "test-request",
    ...(readWay === "preloaded" ? { preloaded: await preloadAs(actor, path) } : {}),
  });
}

/** The DomainError a call fails with, in the terms a client sees. */
async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { key: error.key, status: error.status, problems: error.parameterProblems, headers: error.headers };
  }
  throw new Error("expected the update to fail");
}

const participantRow = (id: number) => db.prisma.participant.findUniqueOrThrow({ where: { id } });
const auditEvents = (participantId: number) =>
  db.prisma.auditEvent.findMany({ where: { entityType: "participant", entityId: participantId }, orderBy: { id: "asc" } });

// Every case runs each way an update can go: as the route sends it ("ahead": the change written in
// the credentials' statement when that statement sees every check pass, else as "preloaded"),
// preloaded with the caller's credentials (then one statement writes, and a participant changed in
// between sends the update on to the locked way), and under the participant's row lock (no
// preload). So a condition of the write-ahead that lets through what the checks refuse fails a case.
describe.each(["ahead", "preloaded", "locked"] as const)("reading the targets %s", (way) => {
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

    it("lets admins and the anonymous admin update; the audit event says who", async () => {
      const { paths } = await contractWorld();
      await update(paths.ann, { title: "by admin" }, { actor: w.actors.admin });
      await update(paths.ann, { title: "by anonymous" }, { actor: anonymousAdmin });
      const events = await auditEvents(paths.ann.participantId);
      // The route's way authenticates with the test's token, so that is the token recorded.
      expect(events.map((e) => [e.actorUserId, e.apiTokenId, e.via])).toEqual([
        [w.actors.admin.userId, way === "ahead" ? tokenId : null, "api_token"],
        [null, way === "ahead" ? tokenId : anonymousAdmin.apiTokenId, "api_token"],
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

// What the "ahead" way above cannot show by outcomes alone: that the route's usual change is really
// written in the credentials' statement, exactly as the update writes it, and only for good credentials.
describe("writing ahead, in the credentials' statement", () => {
  const asToken = (path: TPath, changes: TUpdateParticipantRequest, headers: Record<string, string> = {}, apiTokenId = tokenId) => {
    const write = updateWriteAhead(path, changes, "ahead-request", LINK_BASE)!;
    const request = new Request("http://localhost/v1", { headers: { "x-service-api-token": TOKEN, ...headers } });
    return authenticateApiRequest(request, db.prisma, updateTargetsPreload(path), { write, admit: () => ({ apiTokenId }) });
  };

  it("writes a usual change there, with the same rows and audit event as the update's own write", async () => {
    const ahead = await contractWorld();
    const own = await contractWorld();
    const change = { title: "Head of legal", phone_number: "+46701234567", signatory: false };
    const found = await asToken(ahead.paths.ann, change, { "x-service-user-email": w.actors.editor.email });
    expect(JSON.parse(writtenParticipantAnswer(found.ahead?.written).body)).toMatchObject({ id: ahead.paths.ann.participantId, title: "Head of legal" });
    // Written ahead, answered from what was written: a statement that writes ahead reads no preload.
    expect(found.preloaded).toBeUndefined();
    readWay = "preloaded";
    await update(own.paths.ann, change, { actor: { ...w.actors.editor, apiTokenId: tokenId } });

    const [a, o] = [await participantRow(ahead.paths.ann.participantId), await participantRow(own.paths.ann.participantId)];
    const same = (row: typeof a) => ({ ...row, id: 0, partyId: 0, createdAt: 0, updatedAt: 0 });
    expect(same(a)).toEqual(same(o));
    expect(a.version).toBe(o.version);
    const party = await db.prisma.party.findUniqueOrThrow({ where: { id: ahead.paths.ann.partyId } });
    expect(party.updatedAt).toEqual(a.updatedAt);
    const [ea, eo] = [(await auditEvents(a.id)).at(-1)!, (await auditEvents(o.id)).at(-1)!];
    const event = (e: typeof ea) => ({ ...e, id: 0, entityId: 0, contractId: 0, createdAt: 0, requestId: 0 });
    expect(event(ea)).toEqual(event(eo));
    expect(ea).toMatchObject({ contractId: ahead.contract.id, requestId: "ahead-request", actorUserId: w.actors.editor.userId, via: "api_token" });
  });

  it("keeps an individual party's name and number with its participant's", async () => {
    const { paths } = await contractWorld();
    const found = await asToken(paths.cecilia, { name: "Cecilia Ek", identification_number: "19800101-9999" });
    expect(found.ahead?.written).not.toBeNull();
    expect(await db.prisma.party.findUniqueOrThrow({ where: { id: paths.cecilia.partyId } })).toMatchObject({ name: "Cecilia Ek", identificationNumber: "19800101-9999" });
    const company = await asToken(paths.bo, { name: "Bo Berg" });
    expect(company.ahead?.written).not.toBeNull();
    expect((await db.prisma.party.findUniqueOrThrow({ where: { id: paths.bo.partyId } })).name).toBe("Buyer AB");
  });

  it("writes nothing for a revoked token, for a user who is not active, or for another token than the one admitted", async () => {
    const { paths } = await contractWorld();
    const before = await participantRow(paths.ann.participantId);
    await expect(asToken(paths.ann, { title: "x" }, { "x-service-user-email": "nobody@example.org" })).rejects.toMatchObject({ status: 401 });
    const other = await asToken(paths.ann, { title: "y" }, {}, tokenId + 1000);
    expect(other.ahead?.written).toBeNull();
    // Nor preloaded anything: the route then reads the targets itself (`readFirst`).
    expect(other.preloaded).toBeUndefined();
    await db.prisma.apiToken.updateMany({ where: { tokenHash: hashApiToken(TOKEN) }, data: { revokedAt: new Date() } });
    try {
      await expect(asToken(paths.ann, { title: "z" })).rejects.toMatchObject({ status: 401 });
    } finally {
      await db.prisma.apiToken.updateMany({ where: { tokenHash: hashApiToken(TOKEN) }, data: { revokedAt: null } });
    }
    expect(await participantRow(paths.ann.participantId)).toEqual(before);
    expect(await auditEvents(paths.ann.participantId)).toEqual([]);
  });

  it("writes its statement's text once for each set of attributes and numbering of placeholders, and numbers them right", () => {
    const credentials = { tokenHash: hashApiToken(TOKEN), email: null, userId: null };
    const statement = (path: TPath, changes: TUpdateParticipantRequest, apiTokenId: number | null) =>
      authStatementSql(credentials, updateTargetsPreload(path), { write: updateWriteAhead(path, changes, "r", LINK_BASE)!, apiTokenId });
    // Each $n names a value, and each value is named.
    const numbered = ({ text, values }: { text: string; values: unknown[] }) => {
      const used = new Set([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
      return [...used].sort((a, b) => a - b).join(",") === values.map((_, i) => i + 1).join(",");
    };
    const one = { contractId: 1, partyId: 2, participantId: 3 };
    const two = { contractId: 4, partyId: 5, participantId: 6 };
    const a = statement(one, { title: "a" }, tokenId);
    const b = statement(two, { title: "b" }, tokenId);
    expect(b.text).toBe(a.text);
    expect(b.values).not.toEqual(a.values);
    const others = [statement(one, { title: "a" }, null), statement(one, { name: "n", title: "t" }, tokenId), statement(one, { sign_method: "swedish_bankid" }, null)];
    for (const other of [a, ...others]) expect(numbered(other)).toBe(true);
    expect(new Set([a, ...others].map((s) => s.text)).size).toBe(4);
    // Kept, not only equal: the same object for the same attributes, numbering and condition
    // (lib/api/auth.ts finds the statement's text by that object).
    const ahead = (path: TPath, changes: TUpdateParticipantRequest) => {
      const q = new SqlParams();
      for (let i = 0; i < 4; i++) q.p(null);
      return updateWriteAhead(path, changes, "r", LINK_BASE)!(q, "(true)");
    };
    expect(ahead(two, { title: "b" })).toBe(ahead(one, { title: "a" }));
    // The same attributes in another order are the same statement.
    expect(statement(two, { title: "t", name: "n" }, tokenId).text).toBe(others[1]!.text);
    // A statement that writes ahead reads no preload (lib/api/auth.ts): given one or not, the
    // same text, and none of the preload's; the preload alone is another statement.
    const write = updateWriteAhead(one, { title: "a" }, "r", LINK_BASE)!;
    const withoutPreload = authStatementSql(credentials, undefined, { write, apiTokenId: tokenId });
    expect(withoutPreload.text).toBe(a.text);
    expect(a.text).toContain("NULL AS preload");
    expect(numbered(withoutPreload)).toBe(true);
    expect(statement(one, { title: "a" }, tokenId).text).toBe(a.text);
    const plain = authStatementSql(credentials, updateTargetsPreload(one));
    expect(plain.text).not.toContain("written");
    // The preload's text as `plain` numbers it (after the credentials' three values).
    const numberedAsPlain = new SqlParams();
    for (let i = 0; i < 3; i++) numberedAsPlain.p(null);
    expect(plain.text).toContain(updateTargetsPreload(one)(numberedAsPlain));
    expect(a.values).toHaveLength(withoutPreload.values.length);
    expect(numbered(plain)).toBe(true);
  });

  it("is not offered what it cannot judge: nothing, an e-mail, an empty permission", () => {
    const path = { contractId: 1, partyId: 1, participantId: 1 };
    expect(updateWriteAhead(path, {}, "r", LINK_BASE)).toBeUndefined();
    expect(updateWriteAhead(path, { title: "a", email: "a@example.org" }, "r", LINK_BASE)).toBeUndefined();
    expect(updateWriteAhead(path, { _permissions: {} } as TUpdateParticipantRequest, "r", LINK_BASE)).toBeUndefined();
    expect(updateWriteAhead(path, { title: "a" }, "r", LINK_BASE)).toBeTypeOf("function");
  });

  it("wrote the route's usual changes above ahead (so the route's way was really taken)", () => {
    expect([...writtenAhead].sort()).toEqual([
      "permissions and contract state > allows changes while the contract is pending",
      "permissions and contract state > lets admins and the anonymous admin update; the audit event says who",
      "the participant rules > keeps an option chosen earlier that the template no longer offers, while other attributes change",
      "the participant rules > requires contract:update of a signatory, however it would be lost",
      "the participant rules > requires what the chosen channel and two-step method need, on the participant as it will be",
      "what changes > keeps an individual party's name and identification number equal to its participant's",
      "what changes > writes the changed attributes, bumps version and updated_time, touches the party, audits before/after",
    ]);
  });
});
