// The answers of the contract, party, participant, data field and template type shapes are
// written by PostgreSQL, in the authentication's statement (the reads) or by id after a write
// (lib/api/json): for every kind of caller they must be exactly what the differential oracle
// (test/oracle: Prisma reads and TypeScript serializers) answers, or the same 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateApiRequest, authenticateSessionUser, type TPreload } from "@/lib/api/auth";
import type { Actor } from "@/lib/domain/actor";
import { hashApiToken } from "@/lib/domain/access";
import { bytesFromEscaped, listCountOfEscaped } from "@/lib/db/sql";
import { contractAnswer, contractDetailPreload, contractListPreload, preloadedContract } from "@/lib/api/json/contract";
import { dataFieldAnswer, dataFieldPreload, dataFieldsPreload, preloadedDataField, preloadedDataFields } from "@/lib/api/json/data-field";
import { participantAnswer, participantPreload, preloadedParticipant } from "@/lib/api/json/participant";
import { partiesPreload, partyAnswer, partyPreload, preloadedParties, preloadedParty } from "@/lib/api/json/party";
import { preloadedTemplateType, templateTypeAnswers, templateTypePreload, templateTypesPreload } from "@/lib/api/json/template-type";
import { DIRECT_PAGE_OFFSETS_BELOW } from "@/lib/services/page-form-for";
import { CONTRACT_DETAIL_INCLUDE } from "@/lib/services/contracts/contract-row";
import { foldAllContractCounts } from "@/lib/services/contracts/fold-all-contract-counts";
import type { TContractListQuery, TDataFieldRef, TPagination } from "@/lib/schemas";
import { createTemplateType, createUser } from "@/lib/db/seed/factories";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { getContract, getDataField, getParticipant, getParty, getTemplateType, listContracts, listDataFields, listParties, listTemplateTypes } from "@/test/oracle/reads";
import { serializeContract, serializeContractListItem, serializeDataField, serializeParticipant, serializeParty, serializeTemplateType } from "@/test/oracle/serializers";
import { actorOf, createReadWorld, rejection, type TReadWorld } from "@/test/services/read-fixtures";

/** A list preload's count and its bytes, read as `paginatedPreloaded` reads them. */
function listHeadFromEscaped(preloaded: unknown): { count: number; head: Buffer } {
  return { count: listCountOfEscaped(preloaded), head: bytesFromEscaped(preloaded as string[]) };
}

const ORIGIN = "https://contracts.example.com";
const TOKEN = "hot-reads-token-0123456789";
let db: TestDatabase;
let w: TReadWorld;
// An admin sees every workspace; being a member of one must not narrow that (lib/api/auth.ts
// leaves an admin's `ws` empty).
let memberAdmin: { email: string; actor: Actor };
// A member of both workspaces: a list's form for several workspaces (contract-filter.ts `inEachScopeSql`).
let twoWorkspaces: { email: string; actor: Actor };
beforeAll(async () => {
  db = await createTestDatabase();
  w = await createReadWorld(db.prisma);
  const admin = await createUser(db.prisma, { isAdmin: true, memberships: [{ workspaceId: w.workspaces.a.id, role: "viewer" }] });
  memberAdmin = { email: admin.email, actor: await actorOf(db.prisma, admin) };
  const both = await createUser(db.prisma, { memberships: [{ workspaceId: w.workspaces.a.id, role: "viewer" }, { workspaceId: w.workspaces.b.id, role: "editor" }] });
  twoWorkspaces = { email: both.email, actor: await actorOf(db.prisma, both) };
  await db.prisma.apiToken.create({ data: { name: "hot", prefix: "hot-r", tokenHash: hashApiToken(TOKEN) } });
  // Template types travel as bytes too: text that must be escaped, characters of every UTF-8 length.
  await createTemplateType(db.prisma, { name: `Avtal – "NDA" \\ ö € 😀`, description: "two\nlines\tand a tab" });
  // Every nullable timestamp set somewhere, so the dates PostgreSQL sends back are checked too.
  const moment = new Date("2026-03-04T05:06:07.089Z");
  // Text JSON must escape, and characters of every UTF-8 length (the list travels as bytes: lib/db/sql.ts utf8BytesEscaped).
  const name = `Alpha deal – "quoted" \\ back\\slash, ö, €, 😀, tab\tand newline\n`;
  await db.prisma.contract.update({ where: { id: w.contracts.a.id }, data: { name, publishedAt: moment, signingPeriodExpiresAt: moment, state: "pending" } });
  const party = await db.prisma.party.findFirstOrThrow({ where: { contractId: w.contracts.a.id, myParty: false } });
  await db.prisma.party.update({ where: { id: party.id }, data: { updatedAt: moment } });
  // Data fields travel as bytes too: one whose texts must be escaped, and empty texts.
  const field = await db.prisma.contractDataField.findFirstOrThrow({ where: { contractId: w.contracts.a.id }, orderBy: { id: "asc" } });
  await db.prisma.contractDataField.update({ where: { id: field.id }, data: { name: `Start – "date" \\ ö € 😀`, value: "line\nbreak\tand \u0001", description: "", placeholder: "", customId: "" } });
  await db.prisma.participant.updateMany({
    where: { partyId: party.id },
    data: { signStateUpdatedAt: moment, firstVisitedAt: moment, lastVisitedAt: new Date(moment.getTime() + 1), visits: 2 },
  });
});
afterAll(() => db.cleanup());

/** Each kind of caller, and how to read a preload as that caller. */
function callers(): { name: string; actor: () => Actor; read: (preload: TPreload) => Promise<unknown> }[] {
  // Lazy: the world is made in beforeAll, after the cases are collected.
  const asUser = (user: () => { id: number }) => async (preload: TPreload) => (await authenticateSessionUser(db.prisma, user().id, preload))!.preloaded;
  const asToken = (headers: () => Record<string, string>) => async (preload: TPreload) =>
    (await authenticateApiRequest(new Request("http://localhost/v1", { headers: { "x-service-api-token": TOKEN, ...headers() } }), db.prisma, preload)).preloaded;
  return [
    { name: "anonymous admin", actor: () => ({ kind: "anonymous_admin", isAdmin: true, via: "api_token", apiTokenId: 1 }), read: asToken(() => ({})) },
    { name: "admin by e-mail", actor: () => w.actors.admin, read: asToken(() => ({ "x-service-user-email": w.users.admin.email.toUpperCase() })) },
    { name: "admin who is a member of one workspace", actor: () => memberAdmin.actor, read: asToken(() => ({ "x-service-user-email": memberAdmin.email })) },
    { name: "editor", actor: () => w.actors.editor, read: asUser(() => w.users.editor) },
    { name: "member of two workspaces", actor: () => twoWorkspaces.actor, read: asToken(() => ({ "x-service-user-email": twoWorkspaces.email })) },
    { name: "viewer", actor: () => w.actors.viewer, read: asUser(() => w.users.viewer) },
    { name: "outsider", actor: () => w.actors.outsider, read: asUser(() => w.users.outsider) },
  ];
}

describe("GET /v1/contracts/{id} in one statement", () => {
  it.each(callers().map((c) => [c.name, c] as const))("gives %s exactly the rows, or the 404, of the Prisma read", async (_name, caller) => {
    let found = 0;
    for (const contractId of [w.contracts.a.id, w.contracts.b.id, 999_999]) {
      const preloaded = await caller.read(contractDetailPreload(contractId, ORIGIN));
      const viaPrisma = getContract({ db: db.prisma, actor: caller.actor(), contractId });
      if ((await rejection(viaPrisma).catch(() => null)) !== null) {
        expect(preloaded, `contract ${contractId}`).toBeNull();
        expect(() => preloadedContract(preloaded, contractId)).toThrow(`Contract ${contractId} does not exist.`);
      } else {
        // The text PostgreSQL wrote is the answer the serializer writes for this caller.
        const answer = serializeContract(await viaPrisma, { actor: caller.actor(), origin: ORIGIN });
        expect(JSON.parse(preloadedContract(preloaded, contractId).toString("utf8"))).toEqual(answer);
        found++;
      }
    }
    expect(found).toBeGreaterThan(0);
  });

  it("reads nothing for a caller the credentials do not hold for", async () => {
    const request = (headers: Record<string, string>) => new Request("http://localhost/v1", { headers: { "x-service-api-token": TOKEN, ...headers } });
    await expect(authenticateApiRequest(request({ "x-service-user-email": "nobody@example.com" }), db.prisma, contractDetailPreload(w.contracts.a.id, ORIGIN))).rejects.toThrow(
      /No active user/,
    );
    expect(await authenticateSessionUser(db.prisma, w.users.inactive.id, contractDetailPreload(w.contracts.a.id, ORIGIN))).toBeNull();
  });
});

describe("GET /v1/contracts/{id}/data_fields in one statement", () => {
  const pages: TPagination[] = [
    { limit: "all", offset: 0 },
    { limit: 1, offset: 1 },
    { limit: 100, offset: 5 },
  ];
  it.each(callers().map((c) => [c.name, c] as const))("gives %s exactly the answer of the Prisma read and the serializer, or the 404", async (_name, caller) => {
    let found = 0;
    for (const contractId of [w.contracts.a.id, w.contracts.b.id, 999_999]) {
      for (const pagination of pages) {
        const preloaded = await caller.read(dataFieldsPreload(contractId, pagination, ORIGIN));
        const viaPrisma = listDataFields({ db: db.prisma, actor: caller.actor(), contractId, pagination });
        if ((await rejection(viaPrisma).catch(() => null)) !== null) {
          expect(preloaded, `contract ${contractId}`).toBeNull();
          expect(() => preloadedDataFields(preloaded, contractId)).toThrow(`Contract ${contractId} does not exist.`);
        } else {
          const { count, rows } = await viaPrisma;
          const { count: preloadedCount, head } = listHeadFromEscaped(preloadedDataFields(preloaded, contractId));
          expect(preloadedCount).toBe(count);
          // The text PostgreSQL wrote is the answer's start, with the items as the serializer writes them.
          expect(JSON.parse(`${head.toString("utf8")}}`), JSON.stringify(pagination)).toEqual({
            count,
            data: rows.map((row) => serializeDataField(row, { origin: ORIGIN })),
          });
          found++;
        }
      }
    }
    expect(found).toBeGreaterThan(0);
  });
});

/** The text PostgreSQL wrote is the answer's start: the count, and the items as the serializer writes them. */
function expectPageAsPrisma(written: unknown, count: number, data: unknown[], label: string, countExact?: boolean): void {
  const head = listHeadFromEscaped(written);
  expect(head.count, label).toBe(count);
  expect(JSON.parse(`${head.head.toString("utf8")}}`), label).toEqual({ count, ...(countExact === undefined ? {} : { count_exact: countExact }), data });
}

describe("GET /v1/contracts in one statement", () => {
  const base = { limit: 100, offset: 0, sort: "id" } as const;
  const queries = (): TContractListQuery[] => [
    base,
    { ...base, sort: "-name" },
    { ...base, sort: "created_time", limit: 1, offset: 1 },
    { ...base, sort: "-updated_time" },
    { ...base, workspace_id: w.workspaces.b.id },
    { ...base, state: "pending" },
    { ...base, state: "draft", q: "DEAL" },
    { ...base, q: "%" },
    { ...base, q: "a_p" },
    // The search (test/oracle/search.ts): a data field's value (its U+0001 shown as a space), a word of the name.
    { ...base, q: "break", sort: "-id" },
    { ...base, q: "ö", sort: "name" },
    { ...base, q: "deal alpha", sort: "id" },
    // Each item with where it matched (`_search`), only when asked.
    { ...base, q: "break", sort: "-id", matches: "true" },
    { ...base, state: "draft", q: "DEAL", matches: "true" },
    { ...base, q: "deal alpha", sort: "id", matches: "true" },
    // Counted as the kept totals less the contracts changed since (contract-filter.ts `contractCountSql`).
    { ...base, state: "draft", updated_before: new Date(Date.now() + 86_400_000).toISOString() },
    { ...base, updated_before: new Date(Date.now() - 86_400_000).toISOString() },
    { ...base, workspace_id: w.workspaces.b.id, updated_before: "2000-01-01T00:00:00.000Z" },
    // The lifecycle's (its own fixtures: test/services/list-contracts-lifecycle.test.ts).
    { ...base, sort: "-end_date" },
    { ...base, sort: "notice_deadline", lifecycle_state: "active" },
    { ...base, ends_after: "2000-01-01", notice_deadline_before: "2100-01-01" },
  ];
  async function expectListsAsPrisma(caller: ReturnType<typeof callers>[number]): Promise<void> {
    let rows = 0;
    // Each page both ways: the rows directly (near the start) and their ids first (further on).
    for (const query of queries()) {
      const viaPrisma = await listContracts({ db: db.prisma, actor: caller.actor(), query });
      for (const form of ["direct", "deferred"] as const) {
        const written = await caller.read(contractListPreload(query, ORIGIN, { pageForm: form }));
        expectPageAsPrisma(written, viaPrisma.count, viaPrisma.rows.map((row) => serializeContractListItem(row, { origin: ORIGIN })), `${form} ${JSON.stringify(query)}`, viaPrisma.countExact);
      }
      rows += viaPrisma.rows.length;
    }
    expect(rows).toBeGreaterThan(0);
  }
  it.each(callers().map((c) => [c.name, c] as const))("gives %s exactly the answer the Prisma read and the serializer give", async (_name, caller) => {
    await expectListsAsPrisma(caller);
  });
  it("reads a page near the start directly, and one further on by its ids first", () => {
    const text = (offset: number) => contractListPreload({ ...base, offset }, ORIGIN).text;
    for (const offset of [0, DIRECT_PAGE_OFFSETS_BELOW - 1]) {
      expect(text(offset)).toContain("(SELECT c.* FROM contracts c WHERE");
      expect(text(offset)).not.toContain("JOIN contracts c ON c.id = k.id");
    }
    expect(text(DIRECT_PAGE_OFFSETS_BELOW)).not.toContain("(SELECT c.* FROM contracts c WHERE");
    expect(text(DIRECT_PAGE_OFFSETS_BELOW)).toContain("JOIN contracts c ON c.id = k.id");
  });
  // The count sums kept totals and the deltas not folded yet (fold-contract-counts.ts): above, all
  // deltas; here, all totals.
  it("gives every caller the same answers after the count deltas are folded", async () => {
    expect(await foldAllContractCounts({ db: db.prisma })).toBeGreaterThan(0);
    for (const caller of callers()) await expectListsAsPrisma(caller);
  });
});

describe("GET /v1/template_types in one statement", () => {
  it.each(callers().map((c) => [c.name, c] as const))("gives %s exactly the page and count of the Prisma read", async (_name, caller) => {
    for (const pagination of [{ limit: 100, offset: 0 }, { limit: 1, offset: 0 }, { limit: 2, offset: 1 }, { limit: "all", offset: 1 }] as TPagination[]) {
      const viaPrisma = await listTemplateTypes({ db: db.prisma, pagination });
      for (const form of ["direct", "deferred"] as const) {
        const written = await caller.read(templateTypesPreload(pagination, ORIGIN, form));
        expectPageAsPrisma(written, viaPrisma.count, viaPrisma.rows.map((row) => serializeTemplateType(row, { origin: ORIGIN })), `${form} ${JSON.stringify(pagination)}`);
      }
    }
  });
  it("reads a page near the start directly, and one further on by its ids first", () => {
    const text = (offset: number) => templateTypesPreload({ limit: 100, offset }, ORIGIN).text;
    expect(text(DIRECT_PAGE_OFFSETS_BELOW - 1)).toContain("(SELECT * FROM template_types ORDER BY id LIMIT");
    expect(text(DIRECT_PAGE_OFFSETS_BELOW - 1)).not.toContain("CROSS JOIN LATERAL");
    expect(text(DIRECT_PAGE_OFFSETS_BELOW)).not.toContain("(SELECT * FROM template_types ORDER BY id LIMIT");
    expect(text(DIRECT_PAGE_OFFSETS_BELOW)).toContain("CROSS JOIN LATERAL");
  });
});

/** What a preload answered: the answer's text, or the DomainError's message (a 404). */
function outcome(read: () => string | Buffer): { answer: unknown } | { error: string } {
  try {
    const text = read();
    return { answer: JSON.parse(text.toString()) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** What the oracle (Prisma read + serializer) answers, or the DomainError's message. */
async function oracle(read: () => Promise<unknown>): Promise<{ answer: unknown } | { error: string }> {
  try {
    return { answer: await read() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe("a contract's parties, participants and data fields in one statement", () => {
  it.each(callers().map((c) => [c.name, c] as const))("gives %s exactly the oracle's answers, or its 404s", async (_name, caller) => {
    const actor = caller.actor();
    let found = 0;
    const parties = await db.prisma.party.findMany({ select: { id: true, contractId: true }, orderBy: { id: "asc" } });
    const participants = await db.prisma.participant.findMany({ select: { id: true, partyId: true }, orderBy: { id: "asc" } });
    const fields = await db.prisma.contractDataField.findMany({ select: { id: true, contractId: true, customId: true }, orderBy: { id: "asc" } });
    for (const contractId of [w.contracts.a.id, w.contracts.b.id, 999_999]) {
      for (const pagination of [{ limit: "all", offset: 0 }, { limit: 1, offset: 1 }] as TPagination[]) {
        const written = await caller.read(partiesPreload(contractId, pagination, ORIGIN));
        const viaOracle = await oracle(async () => {
          const { count, rows } = await listParties({ db: db.prisma, actor, contractId, pagination });
          return { count, data: rows.map((row) => serializeParty(row, { actor, links: { origin: ORIGIN } })) };
        });
        expect(outcome(() => `${bytesFromEscaped(preloadedParties(written, contractId) as string[]).toString("utf8")}}`), `parties of ${contractId}`).toEqual(viaOracle);
      }
      // Each party of this contract, one of another contract, and none.
      for (const partyId of [...parties.map((p) => p.id), 999_999]) {
        const written = await caller.read(partyPreload(contractId, partyId, ORIGIN));
        const viaOracle = await oracle(async () => serializeParty(await getParty({ db: db.prisma, actor, contractId, partyId }), { actor, links: { origin: ORIGIN } }));
        expect(outcome(() => preloadedParty(written, contractId, partyId)), `party ${partyId} of ${contractId}`).toEqual(viaOracle);
        if ("answer" in viaOracle) found++;
      }
      for (const participant of [...participants, { id: 999_999, partyId: parties[0]!.id }]) {
        const path = { contractId, partyId: participant.partyId, participantId: participant.id };
        const written = await caller.read(participantPreload(path, ORIGIN));
        const viaOracle = await oracle(async () =>
          serializeParticipant(await getParticipant({ db: db.prisma, actor, ...path }), { actor, links: { origin: ORIGIN, contractId, partyId: participant.partyId } }),
        );
        expect(outcome(() => preloadedParticipant(written, path).answer), `participant ${participant.id} of ${contractId}`).toEqual(viaOracle);
      }
      const refs: TDataFieldRef[] = [...fields.map((f) => ({ id: f.id })), ...fields.map((f) => ({ customId: f.customId })), { id: 999_999 }, { customId: "nope" }];
      for (const ref of refs) {
        const written = await caller.read(dataFieldPreload(contractId, ref, ORIGIN));
        const viaOracle = await oracle(async () => serializeDataField(await getDataField({ db: db.prisma, actor, contractId, dataField: ref }), { origin: ORIGIN }));
        expect(outcome(() => preloadedDataField(written, contractId, ref)), `data field ${JSON.stringify(ref)} of ${contractId}`).toEqual(viaOracle);
      }
    }
    expect(found).toBeGreaterThan(0);
  });
});

describe("a template type in one statement", () => {
  it("answers each template type as the oracle does, and 404 for none", async () => {
    const types = await db.prisma.templateType.findMany({ orderBy: { id: "asc" } });
    const read = callers()[0]!.read;
    for (const id of [...types.map((t) => t.id), 999_999]) {
      const viaOracle = await oracle(async () => serializeTemplateType(await getTemplateType({ db: db.prisma, templateTypeId: id }), { origin: ORIGIN }));
      const written = await read(templateTypePreload(id, ORIGIN));
      expect(outcome(() => preloadedTemplateType(written, id)), `template type ${id}`).toEqual(viaOracle);
    }
    // Inside templates, by id, the same answers.
    const answers = await templateTypeAnswers(db.prisma, ORIGIN, types.map((t) => t.id));
    expect([...answers.values()]).toEqual(types.map((t) => serializeTemplateType(t, { origin: ORIGIN })));
  });
});

describe("the answers after a write, by id", () => {
  it.each(callers().map((c) => [c.name, c] as const))("are for %s exactly the oracle's", async (_name, caller) => {
    const actor = caller.actor();
    const contracts = await db.prisma.contract.findMany({ include: CONTRACT_DETAIL_INCLUDE, orderBy: { id: "asc" } });
    for (const contract of contracts) {
      expect(JSON.parse(await contractAnswer(db.prisma, actor, ORIGIN, contract.id)), `contract ${contract.id}`).toEqual(serializeContract(contract, { actor, origin: ORIGIN }));
      for (const party of contract.parties) {
        expect(JSON.parse(await partyAnswer(db.prisma, actor, ORIGIN, party.id)), `party ${party.id}`).toEqual(serializeParty(party, { actor, links: { origin: ORIGIN } }));
        for (const participant of party.participants) {
          const links = { origin: ORIGIN, contractId: contract.id, partyId: party.id };
          expect(JSON.parse(await participantAnswer(db.prisma, actor, ORIGIN, contract.id, participant.id)), `participant ${participant.id}`).toEqual(serializeParticipant(participant, { actor, links }));
        }
      }
    }
    for (const field of await db.prisma.contractDataField.findMany()) {
      expect(JSON.parse(await dataFieldAnswer(db.prisma, ORIGIN, field.id)), `data field ${field.id}`).toEqual(serializeDataField(field, { origin: ORIGIN }));
    }
  });
});
