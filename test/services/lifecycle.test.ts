// The contract's life after signing (docs/lifecycle.md; lib/services/lifecycle): the term's rules
// through PUT …/lifecycle_settings, the start at the last signature, the job's changes (each once,
// also with two instances), notice and termination, the owner's warnings and internal reminders.
// Time is injected (atTime): nothing waits. TEST_DB=postgres makes the parallel runs really race.
import { createContract as createContractService } from "@/lib/services/contracts/create-contract";
import { ZCreateContractRequestSchema } from "@/lib/schemas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { atTime } from "@/lib/clock";
import { createPrismaClient } from "@/lib/db/pool";
import { createContract, createUser } from "@/lib/db/seed/factories";
import type { TUserActor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import type { TTerm } from "@/lib/domain/lifecycle";
import { publishContract } from "@/lib/services/contracts/publish-contract";
import { advanceDueLifecycles } from "@/lib/services/lifecycle/advance-due-lifecycles";
import { cancelContract } from "@/lib/services/lifecycle/cancel-contract";
import { createContractReminder, MAX_REMINDERS, MAX_UNSENT_REMINDERS } from "@/lib/services/lifecycle/create-contract-reminder";
import { deleteContractReminder } from "@/lib/services/lifecycle/delete-contract-reminder";
import { listContractReminders } from "@/lib/services/lifecycle/list-contract-reminders";
import { sendDueContractReminders } from "@/lib/services/lifecycle/send-due-contract-reminders";
import { terminateContract } from "@/lib/services/lifecycle/terminate-contract";
import { updateLifecycleSettings } from "@/lib/services/lifecycle/update-lifecycle-settings";
import { decideByLink } from "@/lib/services/signing/decide-by-link";
import { getSigningLink } from "@/lib/services/signing/get-signing-link";
import type { TestDatabase } from "@/test/helpers/db";
import { createStaff, createTestWorld, ownerOf } from "@/test/helpers/world";
import { actorOf } from "@/test/services/read-fixtures";

const ORIGIN = "http://lifecycle.test";
const ZONE = "Europe/Stockholm";
let db: TestDatabase;
let staff: TUserActor;
let editor: TUserActor;
let viewer: TUserActor;
let ws: { id: number };
let template: { id: number };

beforeAll(async () => {
  let members;
  ({ db, ws, template, members } = await createTestWorld({ members: ["editor", "viewer"] }));
  await db.prisma.workspace.update({ where: { id: ws.id }, data: { timeZone: ZONE } });
  staff = await createStaff(db.prisma);
  editor = await actorOf(db.prisma, members.editor);
  viewer = await actorOf(db.prisma, members.viewer);
});
afterAll(() => db.cleanup());

/** The refusal a call fails with, as the API answers it: status, code, detail, parameter_problems. */
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { status: error.status, code: error.key, detail: error.message, problems: error.parameterProblems };
  }
  throw new Error("expected a refusal");
}

const at = (iso: string) => new Date(iso);

async function draft(term: Partial<TTerm> = {}) {
  const contract = await createContract(db.prisma, {
    workspaceId: ws.id,
    templateId: template.id,
    owner: ownerOf(staff),
    counterparties: [{ type: "individual", participant: { name: "Sam Signer" } }],
  });
  if (Object.keys(term).length > 0) await updateLifecycleSettings({ db: db.prisma, actor: staff, contractId: contract.id, request: term });
  return contract.id;
}

/** A contract with `term`, published and signed by its one signatory at `signedAt` (through the signing link). */
async function signed(term: Partial<TTerm>, signedAt: Date) {
  const id = await draft(term);
  await atTime(signedAt, async () => {
    await publishContract({ db: db.prisma, actor: staff, contractId: id, linkOrigin: ORIGIN });
    const party = await db.prisma.party.findFirstOrThrow({ where: { contractId: id, myParty: false }, include: { participants: true } });
    const { url } = await getSigningLink({ db: db.prisma, actor: staff, contractId: id, partyId: party.id, participantId: party.participants[0]!.id, linkOrigin: ORIGIN });
    await decideByLink({ db: db.prisma, token: url.split("/sign/")[1]!, decision: { kind: "sign", fullName: "Sam Signer" } });
  });
  return id;
}

const day = (d: Date | null) => d?.toISOString().slice(0, 10) ?? null;
async function stateOf(id: number) {
  const c = await db.prisma.contract.findUniqueOrThrow({ where: { id } });
  return {
    state: c.lifecycleState,
    sub_state: c.lifecycleSubState,
    signed_date: day(c.signedOn),
    period: [day(c.periodStartDate), day(c.periodEndDate)],
    end_date: day(c.endsOn),
    notice_deadline: day(c.noticeDeadline),
    renewals: c.renewals,
    due: c.lifecycleDueAt?.toISOString() ?? null,
  };
}
const actions = async (id: number, prefix = "contract.") =>
  (await db.prisma.auditEvent.findMany({ where: { contractId: id, action: { startsWith: prefix } }, orderBy: { id: "asc" } })).map((e) => e.action);
const job = (when: string, client = db.prisma) => atTime(at(when), () => advanceDueLifecycles({ db: client }));

describe("PUT …/lifecycle_settings: every duration and its refusals", () => {
  it("takes each duration kind with the settings it allows, merging what is left out", async () => {
    const id = await draft();
    const put = (request: Partial<TTerm>) => updateLifecycleSettings({ db: db.prisma, actor: editor, contractId: id, request });
    await put({ duration: "single_period", end_date: "2027-06-30" });
    await put({ duration: "recurring", end_date: null, renewal_period: "P1Y" });
    await put({ notice_period: "P3M" });
    await put({ duration: "recurring_with_initial", initial_duration: "P2Y" });
    const row = await db.prisma.contract.findUniqueOrThrow({ where: { id } });
    expect([row.durationType, row.initialDuration, row.renewalPeriod, row.noticePeriod, row.endDate]).toEqual(["recurring_with_initial", "P2Y", "P1Y", "P3M", null]);
    await put({ duration: "none", initial_duration: null, renewal_period: null, notice_period: null, start_date: "2027-01-01" });
    expect((await db.prisma.contract.findUniqueOrThrow({ where: { id } })).durationType).toBe("none");
    expect(await actions(id)).toEqual(Array(5).fill("contract.lifecycle_settings_update"));
    // The same settings again write nothing.
    await put({ duration: "none" });
    expect((await actions(id)).length).toBe(5);
  });

  it("refuses what a duration does not allow or lacks, a notice as long as the period, an end before the start: 400 naming each, nothing stored", async () => {
    const id = await draft();
    const put = (request: Partial<TTerm>) => refusal(updateLifecycleSettings({ db: db.prisma, actor: editor, contractId: id, request }));
    expect(await put({ duration: "none", end_date: "2027-01-01" })).toMatchObject({ status: 400, code: "validation_failed", problems: { end_date: [expect.stringContaining("not allowed")] } });
    expect((await put({ duration: "single_period" })).problems).toEqual({ end_date: [expect.stringContaining("required")] });
    expect((await put({ duration: "single_period", end_date: "2027-01-01", initial_duration: "P1Y" })).problems).toHaveProperty("initial_duration");
    expect((await put({ duration: "recurring", notice_period: "P1M" })).problems).toEqual({ renewal_period: [expect.stringContaining("required")] });
    expect((await put({ duration: "recurring", renewal_period: "P3M", notice_period: "P3M" })).problems).toEqual({ notice_period: [expect.stringContaining("shorter")] });
    expect((await put({ duration: "recurring", renewal_period: "P1M", notice_period: "P31D" })).problems).toHaveProperty("notice_period");
    expect((await put({ duration: "single_period", start_date: "2027-02-01", end_date: "2027-01-31" })).problems).toEqual({ end_date: [expect.stringContaining("before")] });
    expect((await put({ duration: "recurring_with_initial", renewal_period: "P1Y", end_date: "2027-01-01", start_date: "2027-02-01", notice_period: "P1Y" })).problems).toEqual({
      end_date: [expect.any(String)],
      notice_period: [expect.any(String)],
    });
    const row = await db.prisma.contract.findUniqueOrThrow({ where: { id } });
    expect([row.durationType, row.endDate, row.renewalPeriod]).toEqual(["none", null, null]);
    expect(await actions(id)).toEqual([]);
  });

  it("404 for a contract the caller cannot see, 403 for a viewer, 409 once published", async () => {
    const id = await draft();
    const outsider = await actorOf(db.prisma, await createUser(db.prisma));
    expect(await refusal(updateLifecycleSettings({ db: db.prisma, actor: outsider, contractId: id, request: { duration: "none" } }))).toMatchObject({ status: 404 });
    expect(await refusal(updateLifecycleSettings({ db: db.prisma, actor: viewer, contractId: id, request: { duration: "none" } }))).toMatchObject({ status: 403 });
    await publishContract({ db: db.prisma, actor: staff, contractId: id, linkOrigin: ORIGIN });
    expect(await refusal(updateLifecycleSettings({ db: db.prisma, actor: staff, contractId: id, request: { duration: "recurring", renewal_period: "P1Y" } }))).toMatchObject({
      status: 409,
      code: "contract_not_editable",
    });
  });
});

describe("creation takes the template's defaults", () => {
  it("for its own duration, and none of them for another duration the request names", async () => {
    const nda = await db.prisma.template.create({
      data: { name: "Two-year NDA", durationType: "single_period", initialDuration: "P2Y", workspaces: { create: [{ workspaceId: ws.id }] } },
    });
    const create = (lifecycle_settings?: object) =>
      createContractService({ db: db.prisma, actor: staff, request: ZCreateContractRequestSchema.parse({ workspace_id: ws.id, template_id: nda.id, ...(lifecycle_settings ? { lifecycle_settings } : {}) }) });
    const settingsOf = async (id: number) => {
      const row = await db.prisma.contract.findUniqueOrThrow({ where: { id } });
      return [row.durationType, row.startDate?.toISOString().slice(0, 10) ?? null, row.initialDuration, row.renewalPeriod];
    };
    expect(await settingsOf((await create()).id)).toEqual(["single_period", null, "P2Y", null]);
    expect(await settingsOf((await create({ start_date: "2027-01-01" })).id)).toEqual(["single_period", "2027-01-01", "P2Y", null]);
    expect(await settingsOf((await create({ duration: "recurring", renewal_period: "P1Y" })).id)).toEqual(["recurring", null, null, "P1Y"]);
  });
});

describe("the last signature starts the lifecycle", () => {
  it("signed just after midnight in the workspace's time zone: that day, active, the period and the notice deadline; contract.sign carries it", async () => {
    // 23:30 UTC on 9 March is 00:30 on 10 March in Stockholm.
    const id = await signed({ duration: "recurring", renewal_period: "P1Y", notice_period: "P3M" }, at("2026-03-09T23:30:00Z"));
    expect(await stateOf(id)).toEqual({
      state: "active",
      sub_state: null,
      signed_date: "2026-03-10",
      period: ["2026-03-10", "2027-03-09"],
      end_date: null,
      notice_deadline: "2026-12-09",
      renewals: 0,
      // The owner's warning, 30 days before the deadline at 08:00 in Stockholm (CET).
      due: "2026-11-09T07:00:00.000Z",
    });
    const sign = await db.prisma.auditEvent.findFirstOrThrow({ where: { contractId: id, action: "contract.sign" } });
    expect(sign.after).toMatchObject({ state: "signed", lifecycle_state: { signed_date: "2026-03-10", state: "active", notice_deadline: "2026-12-09" } });
  });

  it("a start date ahead: awaiting until its midnight, then activated once by the job", async () => {
    const id = await signed({ duration: "single_period", start_date: "2026-06-01", initial_duration: "P6M" }, at("2026-04-01T10:00:00Z"));
    expect((await stateOf(id)).state).toBe("awaiting");
    expect((await stateOf(id)).due).toBe("2026-05-31T22:00:00.000Z");
    await job("2026-05-31T21:59:59Z");
    expect((await stateOf(id)).state).toBe("awaiting");
    await job("2026-05-31T22:00:00Z");
    await job("2026-05-31T22:00:01Z");
    expect(await stateOf(id)).toMatchObject({ state: "active", period: ["2026-06-01", "2026-11-30"], end_date: "2026-11-30" });
    expect((await actions(id, "contract.activate")).length).toBe(1);
  });
});

describe("the lifecycle job", () => {
  it("catches up several renewals with one event each, month ends clamped, then nothing more", async () => {
    const id = await signed({ duration: "recurring", renewal_period: "P1M" }, at("2026-01-31T09:00:00Z"));
    await db.prisma.contract.update({ where: { id }, data: { deadlineWarningDays: 0 } });
    await job("2026-05-15T12:00:00Z");
    const renewals = await db.prisma.auditEvent.findMany({ where: { contractId: id, action: "contract.renew" }, orderBy: { id: "asc" } });
    expect(renewals.map((e) => (e.after as { period_start_date: string; renewals: number }).period_start_date)).toEqual(["2026-02-28", "2026-03-31", "2026-04-30"]);
    expect(renewals.map((e) => (e.after as { renewals: number }).renewals)).toEqual([1, 2, 3]);
    expect(await stateOf(id)).toMatchObject({ state: "active", period: ["2026-04-30", "2026-05-30"], renewals: 3 });
    expect((await db.prisma.contract.findUniqueOrThrow({ where: { id } })).renewedAt?.toISOString()).toBe("2026-04-29T22:00:00.000Z");
    await job("2026-05-15T12:00:00Z");
    await job("2026-05-20T12:00:00Z");
    expect((await actions(id, "contract.renew")).length).toBe(3);
  });

  it("ends a single period at the midnight after its last day, once", async () => {
    const id = await signed({ duration: "single_period", end_date: "2026-02-28" }, at("2026-01-10T09:00:00Z"));
    await db.prisma.contract.update({ where: { id }, data: { deadlineWarningDays: 0 } });
    await job("2026-02-28T22:59:00Z");
    expect((await stateOf(id)).state).toBe("active");
    await job("2026-02-28T23:00:00Z");
    await job("2026-03-02T00:00:00Z");
    expect(await stateOf(id)).toMatchObject({ state: "ended", end_date: "2026-02-28", due: null });
    expect(await actions(id, "contract.end")).toEqual(["contract.end"]);
  });

  it("signed after its end date (it starts on signing): active that day, ended at its midnight, each change written once", async () => {
    const id = await signed({ duration: "recurring_with_initial", end_date: "2026-01-15", renewal_period: "P1M", notice_period: "P10D" }, at("2026-11-29T09:00:00Z"));
    await db.prisma.contract.update({ where: { id }, data: { deadlineWarningDays: 0 } });
    expect(await stateOf(id)).toMatchObject({ state: "active", period: ["2026-11-29", "2026-11-29"], renewals: 0 });
    await job("2026-11-29T12:00:00Z");
    await job("2026-11-29T13:00:00Z");
    expect(await actions(id, "contract.activate")).toEqual([]);
    await job("2026-12-05T12:00:00Z");
    await job("2026-12-06T12:00:00Z");
    expect(await stateOf(id)).toMatchObject({ state: "active", period: ["2026-11-30", "2026-12-29"], renewals: 1 });
    expect(await actions(id, "contract.re")).toEqual(["contract.renew"]);
    const single = await signed({ duration: "single_period", end_date: "2026-06-30" }, at("2026-11-29T09:00:00Z"));
    await db.prisma.contract.update({ where: { id: single }, data: { deadlineWarningDays: 0 } });
    await job("2026-11-30T12:00:00Z");
    await job("2026-12-01T12:00:00Z");
    expect(await stateOf(single)).toMatchObject({ state: "ended", period: ["2026-11-29", "2026-11-29"], end_date: "2026-11-29" });
    expect(await actions(single, "contract.")).toEqual(expect.arrayContaining(["contract.end"]));
    expect((await actions(single, "contract.")).filter((a) => a === "contract.end" || a === "contract.activate")).toEqual(["contract.end"]);
  });

  it("two instances at once: each change of each contract written exactly once", async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, () => signed({ duration: "recurring", renewal_period: "P1W" }, at("2026-01-05T09:00:00Z"))));
    const clients = [createPrismaClient(db.url, 3), createPrismaClient(db.url, 3)];
    try {
      await Promise.all(clients.flatMap((client) => [job("2026-02-02T12:00:00Z", client), job("2026-02-02T12:00:00Z", client)]));
    } finally {
      await Promise.all(clients.map((c) => c.$disconnect()));
    }
    const counts = await db.prisma.auditEvent.groupBy({ by: ["contractId"], where: { contractId: { in: ids }, action: "contract.renew" }, _count: true });
    expect(counts.map((c) => c._count)).toEqual(ids.map(() => 4));
    const warnings = await db.prisma.emailMessage.groupBy({ by: ["contractId"], where: { contractId: { in: ids }, kind: "lifecycle_warning" }, _count: true });
    expect(warnings.every((w) => w._count === 1)).toBe(true);
    for (const id of ids) expect((await stateOf(id)).renewals).toBe(4);
  });
});

describe("notice (cancel)", () => {
  const term = { duration: "recurring", renewal_period: "P1Y", notice_period: "P1M" } as const;
  // Signed 2026-01-01 (Stockholm): the first period ends 2026-12-31, notice is due by 2026-11-30.

  it("before or on the deadline: canceled, ends at the end of the period, then ended by the job once", async () => {
    const before = await signed(term, at("2026-01-01T09:00:00Z"));
    const onTheDay = await signed(term, at("2026-01-01T09:00:00Z"));
    await atTime(at("2026-11-01T12:00:00Z"), () => cancelContract({ db: db.prisma, actor: editor, contractId: before }));
    // 23:59 on the deadline in Stockholm.
    await atTime(at("2026-11-30T22:59:00Z"), () => cancelContract({ db: db.prisma, actor: editor, contractId: onTheDay }));
    for (const id of [before, onTheDay]) {
      expect(await stateOf(id)).toMatchObject({ state: "active", sub_state: "canceled", end_date: "2026-12-31", notice_deadline: null });
      expect(await actions(id, "contract.cancel")).toEqual(["contract.cancel"]);
    }
    await job("2026-12-31T23:00:00Z");
    expect(await stateOf(before)).toMatchObject({ state: "ended", end_date: "2026-12-31", renewals: 0 });
    expect((await actions(before)).filter((a) => a === "contract.end" || a === "contract.renew")).toEqual(["contract.end"]);
  });

  it("after the deadline: 409 whose one sentence names the earliest end date; nothing changes", async () => {
    const id = await signed(term, at("2026-01-01T09:00:00Z"));
    const refused = await refusal(atTime(at("2026-11-30T23:00:00Z"), () => cancelContract({ db: db.prisma, actor: editor, contractId: id })));
    expect(refused).toMatchObject({ status: 409, code: "lifecycle_action_refused" });
    expect(refused.detail).toBe("Notice to end on 2026-12-31 was due by 2026-11-30; the earliest the contract can now end is 2027-12-31.");
    expect(await stateOf(id)).toMatchObject({ sub_state: null, end_date: null });
    expect(await actions(id, "contract.cancel")).toEqual([]);
  });

  it("a contract not signed, a single period, or one already ending: 409; a viewer 403", async () => {
    expect(await refusal(cancelContract({ db: db.prisma, actor: staff, contractId: await draft(term) }))).toMatchObject({ status: 409, code: "lifecycle_action_refused" });
    const single = await signed({ duration: "single_period", end_date: "2030-01-01" }, at("2026-01-01T09:00:00Z"));
    expect((await refusal(cancelContract({ db: db.prisma, actor: staff, contractId: single }))).detail).toContain("terminate it");
    const id = await signed(term, at("2026-01-01T09:00:00Z"));
    expect(await refusal(atTime(at("2026-03-01T12:00:00Z"), () => cancelContract({ db: db.prisma, actor: viewer, contractId: id })))).toMatchObject({ status: 403 });
    await atTime(at("2026-03-01T12:00:00Z"), () => cancelContract({ db: db.prisma, actor: staff, contractId: id }));
    expect((await refusal(atTime(at("2026-03-02T12:00:00Z"), () => cancelContract({ db: db.prisma, actor: staff, contractId: id })))).detail).toBe("The contract already ends on 2026-12-31.");
  });

  it("a renewal the job has not made yet is made (once) before the notice is judged", async () => {
    const id = await signed(term, at("2026-01-01T09:00:00Z"));
    await atTime(at("2027-02-01T12:00:00Z"), () => cancelContract({ db: db.prisma, actor: staff, contractId: id }));
    expect(await stateOf(id)).toMatchObject({ sub_state: "canceled", renewals: 1, end_date: "2027-12-31" });
    await job("2027-02-01T12:00:00Z");
    expect(await actions(id, "contract.renew")).toEqual(["contract.renew"]);
  });
});

describe("termination", () => {
  const term = { duration: "recurring", renewal_period: "P1Y", notice_period: "P1M" } as const;

  it("now: ended and terminated at once, contract.terminate and contract.end", async () => {
    const id = await signed(term, at("2026-01-01T09:00:00Z"));
    await atTime(at("2026-05-05T10:00:00Z"), () => terminateContract({ db: db.prisma, actor: editor, contractId: id }));
    expect(await stateOf(id)).toMatchObject({ state: "ended", sub_state: "terminated", end_date: "2026-05-05", due: null });
    expect((await actions(id)).slice(-2)).toEqual(["contract.terminate", "contract.end"]);
    expect((await refusal(terminateContract({ db: db.prisma, actor: editor, contractId: id }))).detail).toBe("The contract ended on 2026-05-05.");
  });

  it("on a date: active until the end of that day, then ended by the job; a date in the past is a 400 naming date", async () => {
    const id = await signed(term, at("2026-01-01T09:00:00Z"));
    expect(await refusal(atTime(at("2026-05-05T10:00:00Z"), () => terminateContract({ db: db.prisma, actor: editor, contractId: id, date: "2026-05-04" })))).toMatchObject({
      status: 400,
      code: "validation_failed",
      problems: { date: [expect.stringContaining("2026-05-05")] },
    });
    await atTime(at("2026-05-05T10:00:00Z"), () => terminateContract({ db: db.prisma, actor: editor, contractId: id, date: "2026-06-30" }));
    expect(await stateOf(id)).toMatchObject({ state: "active", end_date: "2026-06-30", notice_deadline: null });
    expect(await refusal(atTime(at("2026-05-06T10:00:00Z"), () => terminateContract({ db: db.prisma, actor: editor, contractId: id, date: "2026-07-30" })))).toMatchObject({ status: 409 });
    await job("2026-06-30T22:00:00Z");
    expect(await stateOf(id)).toMatchObject({ state: "ended", sub_state: "terminated", end_date: "2026-06-30" });
    expect(await actions(id, "contract.end")).toEqual(["contract.end"]);
  });

  it("a contract that is not signed: 409", async () => {
    expect(await refusal(terminateContract({ db: db.prisma, actor: staff, contractId: await draft() }))).toMatchObject({ status: 409, code: "lifecycle_action_refused" });
  });
});

describe("the owner's warnings", () => {
  it("N days before the notice deadline and before the end, each exactly once, to the organizer", async () => {
    const id = await signed({ duration: "recurring_with_initial", end_date: "2026-06-30", renewal_period: "P1Y", notice_period: "P1M" }, at("2026-01-01T09:00:00Z"));
    await db.prisma.contract.update({ where: { id }, data: { deadlineWarningDays: 10 } });
    const mails = () => db.prisma.emailMessage.findMany({ where: { contractId: id, kind: "lifecycle_warning" }, orderBy: { id: "asc" } });
    // Deadline 2026-05-31: the warning is due 2026-05-21 at 08:00 Stockholm (06:00 UTC).
    await db.prisma.contract.update({ where: { id }, data: { lifecycleDueAt: at("2026-05-21T05:00:00Z") } });
    await job("2026-05-21T05:59:00Z");
    expect(await mails()).toEqual([]);
    await job("2026-05-21T06:00:00Z");
    await job("2026-05-22T06:00:00Z");
    expect((await mails()).map((m) => [m.toAddress, m.subject])).toEqual([[staff.email, expect.stringContaining("Notice deadline 2026-05-31")]]);
    // Notice given: the end date is warned about instead, once.
    await atTime(at("2026-05-25T10:00:00Z"), () => cancelContract({ db: db.prisma, actor: staff, contractId: id }));
    await job("2026-05-25T10:00:01Z");
    expect(await mails()).toHaveLength(1);
    // Ends 2026-06-30: warned 2026-06-20 at 08:00 Stockholm (CEST), once.
    await job("2026-06-20T05:59:00Z");
    expect(await mails()).toHaveLength(1);
    await job("2026-06-20T06:00:00Z");
    await job("2026-06-21T06:00:00Z");
    expect((await mails()).map((m) => m.subject)).toEqual([expect.stringContaining("Notice deadline"), expect.stringContaining("Ends 2026-06-30")]);
    expect(await actions(id, "contract.notice_warning_send")).toHaveLength(1);
    expect(await actions(id, "contract.end_warning_send")).toHaveLength(1);
  });

  it("go only to an owner who may still see the contract: one removed from its workspace gets none (as internal reminders)", async () => {
    const former = await createUser(db.prisma, { memberships: [{ workspaceId: ws.id, role: "editor" }] });
    const id = await signed({ duration: "single_period", end_date: "2026-03-31" }, at("2026-02-01T09:00:00Z"));
    await db.prisma.participant.updateMany({ where: { organizer: true, party: { contractId: id, myParty: true } }, data: { userId: former.id } });
    await db.prisma.contract.update({ where: { id }, data: { createdById: former.id, deadlineWarningDays: 10, lifecycleDueAt: at("2026-02-01T10:00:00Z") } });
    await db.prisma.workspaceMembership.delete({ where: { userId_workspaceId: { userId: former.id, workspaceId: ws.id } } });
    await job("2026-03-25T09:00:00Z");
    expect(await db.prisma.emailMessage.findMany({ where: { contractId: id, kind: "lifecycle_warning" }, select: { toAddress: true } })).toEqual([]);
  });

  it("0 days (the contract's or the workspace's) sends none", async () => {
    const id = await signed({ duration: "single_period", end_date: "2026-02-10" }, at("2026-02-01T09:00:00Z"));
    await db.prisma.contract.update({ where: { id }, data: { deadlineWarningDays: 0, lifecycleDueAt: at("2026-02-01T10:00:00Z") } });
    await job("2026-02-05T09:00:00Z");
    expect(await db.prisma.emailMessage.count({ where: { contractId: id, kind: "lifecycle_warning" } })).toBe(0);
  });
});

describe("internal reminders", () => {
  it("are checked (date today or later in the workspace's zone, a recipient who may see the contract), listed, e-mailed once at 08:00, and deletable until sent", async () => {
    const id = await signed({ duration: "none" }, at("2026-01-01T09:00:00Z"));
    const outsider = await createUser(db.prisma);
    const create = (request: { date: string; note: string; recipient_id?: number }, when = "2026-03-01T10:00:00Z") =>
      atTime(at(when), () => createContractReminder({ db: db.prisma, actor: editor, contractId: id, request }));
    expect(await refusal(create({ date: "2026-02-28", note: "x", recipient_id: outsider.id }))).toMatchObject({
      status: 400,
      problems: { date: [expect.stringContaining("2026-03-01")], recipient_id: [expect.any(String)] },
    });
    expect(await refusal(atTime(at("2026-03-01T10:00:00Z"), () => createContractReminder({ db: db.prisma, actor: viewer, contractId: id, request: { date: "2026-03-05", note: "x" } })))).toMatchObject({ status: 403 });
    const first = await create({ date: "2026-03-05", note: "Check the price index", recipient_id: viewer.userId });
    const second = await create({ date: "2026-03-06", note: "Call them" });
    expect(first.dueAt.toISOString()).toBe("2026-03-05T07:00:00.000Z");
    expect((await listContractReminders({ db: db.prisma, actor: viewer, contractId: id })).map((r) => r.id)).toEqual([first.id, second.id]);

    const clients = [createPrismaClient(db.url, 2), createPrismaClient(db.url, 2)];
    try {
      await atTime(at("2026-03-05T06:59:00Z"), () => sendDueContractReminders({ db: db.prisma }));
      expect(await db.prisma.emailMessage.count({ where: { contractId: id, kind: "contract_reminder" } })).toBe(0);
      await atTime(at("2026-03-05T07:00:00Z"), () => Promise.all(clients.flatMap((client) => [sendDueContractReminders({ db: client }), sendDueContractReminders({ db: client })])));
    } finally {
      await Promise.all(clients.map((c) => c.$disconnect()));
    }
    const mails = await db.prisma.emailMessage.findMany({ where: { contractId: id, kind: "contract_reminder" } });
    expect(mails.map((m) => m.toAddress)).toEqual([viewer.email]);
    expect(mails[0]!.body).toContain("Check the price index");
    expect(await actions(id, "contract.internal_reminder_send")).toHaveLength(1);

    expect(await refusal(deleteContractReminder({ db: db.prisma, actor: editor, contractId: id, reminderId: first.id }))).toMatchObject({ status: 409, code: "contract_reminder_sent" });
    await deleteContractReminder({ db: db.prisma, actor: editor, contractId: id, reminderId: second.id });
    expect(await refusal(deleteContractReminder({ db: db.prisma, actor: editor, contractId: id, reminderId: second.id }))).toMatchObject({ status: 404 });
    expect(await actions(id, "contract.internal_reminder_")).toEqual([
      "contract.internal_reminder_create",
      "contract.internal_reminder_create",
      "contract.internal_reminder_send",
      "contract.internal_reminder_delete",
    ]);
  });

  it("are at most 50 waiting per contract (409, counted under the contract's lock), so the list answered whole stays short", async () => {
    const id = await signed({ duration: "none" }, at("2026-01-01T09:00:00Z"));
    const create = () => atTime(at("2026-03-01T10:00:00Z"), () => createContractReminder({ db: db.prisma, actor: editor, contractId: id, request: { date: "2026-04-01", note: "n" } }));
    await Promise.all(Array.from({ length: MAX_UNSENT_REMINDERS }, create));
    expect(await refusal(create())).toMatchObject({ status: 409, code: "reminder_limit_reached" });
    expect(await db.prisma.contractReminder.count({ where: { contractId: id } })).toBe(MAX_UNSENT_REMINDERS);
  });

  it("are at most 200 in all, sent ones included (409): sent within the minute, they would otherwise pile up without end", async () => {
    const id = await signed({ duration: "none" }, at("2026-01-01T09:00:00Z"));
    const create = (day: string) => atTime(at(`${day}T06:00:00Z`), () => createContractReminder({ db: db.prisma, actor: editor, contractId: id, request: { date: day, note: "n" } }));
    for (let round = 1; round <= MAX_REMINDERS / MAX_UNSENT_REMINDERS; round++) {
      const day = `2026-03-0${round}`;
      for (let n = 0; n < MAX_UNSENT_REMINDERS; n++) await create(day);
      await atTime(at(`${day}T09:00:00Z`), () => sendDueContractReminders({ db: db.prisma }));
    }
    expect(await db.prisma.contractReminder.count({ where: { contractId: id, sentAt: null } })).toBe(0);
    expect(await refusal(create("2026-03-09"))).toMatchObject({ status: 409, code: "reminder_limit_reached" });
    expect(await db.prisma.contractReminder.count({ where: { contractId: id } })).toBe(MAX_REMINDERS);
  });
});

describe("the warning days and the workspace's time zone (…/reminder_settings)", () => {
  it("a signed contract's deadline_warning_days may change (its signing reminders may not); the job takes it at once", async () => {
    const { updateContractReminderSettings } = await import("@/lib/services/reminders/update-contract-reminder-settings");
    const id = await signed({ duration: "recurring", renewal_period: "P1Y", notice_period: "P1M" }, at("2026-01-01T09:00:00Z"));
    expect(await refusal(updateContractReminderSettings({ db: db.prisma, actor: editor, contractId: id, request: { first_reminder_days: 3 } }))).toMatchObject({ status: 409 });
    const settings = await atTime(at("2026-02-01T12:00:00Z"), () => updateContractReminderSettings({ db: db.prisma, actor: editor, contractId: id, request: { deadline_warning_days: 320 } }));
    expect(settings).toMatchObject({ deadline_warning_days: 320, workspace_defaults: { deadline_warning_days: 30, time_zone: ZONE } });
    expect((await stateOf(id)).due).toBe("2026-02-01T12:00:00.000Z");
    // 320 days before 2026-11-30 (2026-01-14) has passed: the warning goes on the job's next turn.
    await job("2026-02-01T12:00:01Z");
    expect(await db.prisma.emailMessage.count({ where: { contractId: id, kind: "lifecycle_warning" } })).toBe(1);
  });

  it("time_zone: a valid IANA name (400 naming it otherwise), administrators only; it moves running contracts' turns and unsent reminders", async () => {
    const { ZUpdateReminderSettingsRequestSchema } = await import("@/lib/schemas/reminder-settings");
    const { updateWorkspaceReminderSettings } = await import("@/lib/services/reminders/update-workspace-reminder-settings");
    const parsed = ZUpdateReminderSettingsRequestSchema.safeParse({ time_zone: "Mars/Olympus" });
    expect(parsed.success ? [] : parsed.error.issues.map((i) => i.path.join("."))).toEqual(["time_zone"]);
    expect(await refusal(updateWorkspaceReminderSettings({ db: db.prisma, actor: editor, workspaceId: ws.id, request: { time_zone: "UTC" } }))).toMatchObject({ status: 403, code: "admin_only" });
    // Editors still change the days.
    await updateWorkspaceReminderSettings({ db: db.prisma, actor: editor, workspaceId: ws.id, request: { deadline_warning_days: 30 } });

    const id = await signed({ duration: "recurring", renewal_period: "P1Y" }, at("2026-01-01T09:00:00Z"));
    const reminder = await atTime(at("2026-03-01T10:00:00Z"), () => createContractReminder({ db: db.prisma, actor: editor, contractId: id, request: { date: "2026-04-01", note: "Zone" } }));
    expect(reminder.dueAt.toISOString()).toBe("2026-04-01T06:00:00.000Z");
    try {
      const answer = await atTime(at("2026-03-01T10:00:00Z"), () => updateWorkspaceReminderSettings({ db: db.prisma, actor: staff, workspaceId: ws.id, request: { time_zone: "America/New_York" } }));
      expect(answer.time_zone).toBe("America/New_York");
      expect((await db.prisma.contractReminder.findUniqueOrThrow({ where: { id: reminder.id } })).dueAt.toISOString()).toBe("2026-04-01T12:00:00.000Z");
      expect((await stateOf(id)).due).toBe("2026-03-01T10:00:00.000Z");
      await job("2026-03-01T10:00:01Z");
      // The owner's warning before the period's end (2026-12-31, no notice period): 08:00 in New York, 30 days before.
      expect((await stateOf(id)).due).toBe("2026-12-01T13:00:00.000Z");
    } finally {
      await db.prisma.workspace.update({ where: { id: ws.id }, data: { timeZone: ZONE } });
    }
  });

  it("time_zone moved west and back: a renewal already written is never taken back, nor written or warned about again", async () => {
    const { updateWorkspaceReminderSettings } = await import("@/lib/services/reminders/update-workspace-reminder-settings");
    const zone = (time_zone: string, when: string) =>
      atTime(at(when), () => updateWorkspaceReminderSettings({ db: db.prisma, actor: staff, workspaceId: ws.id, request: { time_zone } }));
    const id = await signed({ duration: "recurring", renewal_period: "P1M", notice_period: "P10D" }, at("2026-01-10T09:00:00Z"));
    try {
      // Renewed at midnight in Stockholm (23:00 UTC); in Honolulu it is still the afternoon before.
      await job("2026-02-09T23:30:00Z");
      expect(await stateOf(id)).toMatchObject({ period: ["2026-02-10", "2026-03-09"], renewals: 1, notice_deadline: "2026-02-27" });
      await zone("Pacific/Honolulu", "2026-02-09T23:40:00Z");
      await job("2026-02-09T23:41:00Z");
      expect(await stateOf(id)).toMatchObject({ period: ["2026-02-10", "2026-03-09"], renewals: 1, notice_deadline: "2026-02-27" });
      // Midnight in Honolulu, then back to Stockholm: still the one renewal, the one warning.
      await job("2026-02-10T10:00:00Z");
      await zone(ZONE, "2026-02-10T11:00:00Z");
      await job("2026-02-10T11:00:01Z");
      await job("2026-02-20T12:00:00Z");
      expect(await stateOf(id)).toMatchObject({ period: ["2026-02-10", "2026-03-09"], renewals: 1 });
      expect(await actions(id, "contract.renew")).toEqual(["contract.renew"]);
      const warned = await db.prisma.auditEvent.findMany({ where: { contractId: id, action: "contract.notice_warning_send" }, orderBy: { id: "asc" } });
      expect(warned.map((e) => (e.after as { notice_deadline: string }).notice_deadline)).toEqual(["2026-02-27"]);
    } finally {
      await db.prisma.workspace.update({ where: { id: ws.id }, data: { timeZone: ZONE } });
    }
  });

  it("time_zone moved west just after a notice deadline passed: the deadline stays passed, notice is refused, each deadline warned about once", async () => {
    const { updateWorkspaceReminderSettings } = await import("@/lib/services/reminders/update-workspace-reminder-settings");
    const id = await signed({ duration: "recurring", renewal_period: "P1M", notice_period: "P10D" }, at("2026-01-10T09:00:00Z"));
    try {
      await job("2026-01-10T09:00:01Z");
      expect(await stateOf(id)).toMatchObject({ period: ["2026-01-10", "2026-02-09"], notice_deadline: "2026-01-30" });
      // The deadline passes at midnight in Stockholm (23:00 UTC); in Honolulu it is then the afternoon of the 30th.
      await job("2026-01-30T23:30:00Z");
      expect(await stateOf(id)).toMatchObject({ period: ["2026-01-10", "2026-02-09"], notice_deadline: "2026-02-27" });
      await atTime(at("2026-01-30T23:40:00Z"), () => updateWorkspaceReminderSettings({ db: db.prisma, actor: staff, workspaceId: ws.id, request: { time_zone: "Pacific/Honolulu" } }));
      await job("2026-01-30T23:41:00Z");
      expect(await stateOf(id)).toMatchObject({ period: ["2026-01-10", "2026-02-09"], notice_deadline: "2026-02-27" });
      expect(await refusal(atTime(at("2026-01-30T23:45:00Z"), () => cancelContract({ db: db.prisma, actor: editor, contractId: id })))).toMatchObject({
        status: 409,
        detail: "Notice to end on 2026-02-09 was due by 2026-01-30; the earliest the contract can now end is 2026-03-09.",
      });
      // Midnight in Honolulu: nothing new to warn about.
      await job("2026-01-31T10:30:00Z");
      const warned = await db.prisma.auditEvent.findMany({ where: { contractId: id, action: "contract.notice_warning_send" }, orderBy: { id: "asc" } });
      expect(warned.map((e) => (e.after as { notice_deadline: string }).notice_deadline)).toEqual(["2026-01-30", "2026-02-27"]);
      expect(await stateOf(id)).toMatchObject({ sub_state: null, notice_deadline: "2026-02-27" });
    } finally {
      await db.prisma.workspace.update({ where: { id: ws.id }, data: { timeZone: ZONE } });
    }
  });

  it("notice given, then the zone moved west or east: it ends on its last day at that day's midnight there, never renewed past it", async () => {
    const { updateWorkspaceReminderSettings } = await import("@/lib/services/reminders/update-workspace-reminder-settings");
    const zone = (time_zone: string, when: string) =>
      atTime(at(when), () => updateWorkspaceReminderSettings({ db: db.prisma, actor: staff, workspaceId: ws.id, request: { time_zone } }));
    const term = { duration: "recurring", renewal_period: "P1Y", notice_period: "P1M" } as const;
    const west = await signed(term, at("2026-01-01T09:00:00Z")); // its period ends 2026-12-31
    const east = await signed(term, at("2026-02-01T09:00:00Z")); // its period ends 2027-01-31
    const ends = async (id: number) => (await actions(id)).filter((a) => a === "contract.end" || a === "contract.renew");
    try {
      await atTime(at("2026-11-01T12:00:00Z"), () => cancelContract({ db: db.prisma, actor: editor, contractId: west }));
      await atTime(at("2026-12-01T12:00:00Z"), () => cancelContract({ db: db.prisma, actor: editor, contractId: east }));
      // UTC−12: at 23:30 UTC on 2026-12-31, after Stockholm's midnight, it is that day's noon there.
      await zone("Etc/GMT+12", "2026-12-02T12:00:00Z");
      await job("2026-12-31T23:30:00Z");
      expect(await stateOf(west)).toMatchObject({ state: "active", sub_state: "canceled", end_date: "2026-12-31", renewals: 0 });
      await job("2027-01-01T12:30:00Z");
      expect(await stateOf(west)).toMatchObject({ state: "ended", end_date: "2026-12-31", renewals: 0 });
      expect(await ends(west)).toEqual(["contract.end"]);
      // UTC+14: its midnight after 2027-01-31 is 10:00 UTC that day, hours before Stockholm's.
      await zone("Pacific/Kiritimati", "2027-01-02T12:00:00Z");
      await job("2027-01-31T10:30:00Z");
      expect(await stateOf(east)).toMatchObject({ state: "ended", sub_state: null, end_date: "2027-01-31", renewals: 0 });
      await job("2027-02-01T12:00:00Z");
      expect(await ends(east)).toEqual(["contract.end"]);
    } finally {
      await db.prisma.workspace.update({ where: { id: ws.id }, data: { timeZone: ZONE } });
    }
  });

  it("terminated in the hours after a zone moved west: it ends at the end of the stored period's first day, never back in the period before", async () => {
    const { updateWorkspaceReminderSettings } = await import("@/lib/services/reminders/update-workspace-reminder-settings");
    const id = await signed({ duration: "recurring", renewal_period: "P1M" }, at("2026-01-10T09:00:00Z"));
    try {
      await job("2026-02-09T23:30:00Z");
      await atTime(at("2026-02-09T23:40:00Z"), () => updateWorkspaceReminderSettings({ db: db.prisma, actor: staff, workspaceId: ws.id, request: { time_zone: "Pacific/Honolulu" } }));
      const terminate = (date?: string) => atTime(at("2026-02-09T23:45:00Z"), () => terminateContract({ db: db.prisma, actor: staff, contractId: id, date }));
      // 9 February in Honolulu, but the period that began on the 10th is the one stored.
      // The field's problem is the date's alone; the detail adds the API caller's way out.
      expect(await refusal(terminate("2026-02-09"))).toMatchObject({
        status: 400,
        detail: "date: must be today (2026-02-10) or later; leave it out to terminate now",
        problems: { date: ["must be today (2026-02-10) or later"] },
      });
      expect(await terminate()).toEqual({ endDate: "2026-02-10" });
      expect(await stateOf(id)).toMatchObject({ state: "active", sub_state: null, period: ["2026-02-10", "2026-02-10"], renewals: 1, end_date: "2026-02-10" });
      await job("2026-02-11T10:00:00Z");
      expect(await stateOf(id)).toMatchObject({ state: "ended", sub_state: "terminated", renewals: 1, end_date: "2026-02-10" });
      expect(await actions(id, "contract.re")).toEqual(["contract.renew"]);
      expect(await actions(id, "contract.end")).toEqual(["contract.end"]);
    } finally {
      await db.prisma.workspace.update({ where: { id: ws.id }, data: { timeZone: ZONE } });
    }
  });

  it("time_zone: a name the runtime knows moves unsent reminders by the same rules as creating them (never PostgreSQL's own zone table), and offsets are not names", async () => {
    const { isTimeZone } = await import("@/lib/domain/calendar");
    const { updateWorkspaceReminderSettings } = await import("@/lib/services/reminders/update-workspace-reminder-settings");
    // Node 24 takes "+05:00" as a zone; PostgreSQL reads the same text as 5 hours west (POSIX).
    expect(["+05:00", "-08:00", "+0530", "Europe/Stockholm", "Etc/GMT+5"].map(isTimeZone)).toEqual([false, false, false, true, true]);
    const id = await signed({ duration: "recurring", renewal_period: "P1Y" }, at("2026-01-01T09:00:00Z"));
    const reminder = await atTime(at("2026-03-01T10:00:00Z"), () => createContractReminder({ db: db.prisma, actor: editor, contractId: id, request: { date: "2026-04-01", note: "Alias" } }));
    try {
      // An alias the runtime's ICU knows and PostgreSQL's tzdata dropped (2020b): refused by the database before.
      await atTime(at("2026-03-01T10:00:00Z"), () => updateWorkspaceReminderSettings({ db: db.prisma, actor: staff, workspaceId: ws.id, request: { time_zone: "US/Pacific-New" } }));
      expect((await db.prisma.contractReminder.findUniqueOrThrow({ where: { id: reminder.id } })).dueAt.toISOString()).toBe("2026-04-01T15:00:00.000Z");
    } finally {
      await db.prisma.workspace.update({ where: { id: ws.id }, data: { timeZone: ZONE } });
    }
  });
});

describe("the term in the contract's text and PDF", () => {
  it("{{term.…}} placeholders are known (others stay errors) and render in words; the PDF states the term", async () => {
    const { bodyProblems, renderDocument } = await import("@/lib/domain/contract-document");
    const body = {
      sections: [{ heading: "Term", text: "Starts {{term.start_date}}, {{ term.duration }}; ends {{term.end_date}}; renews every {{term.renewal_period}}; notice {{term.notice_period}}." }],
    };
    expect(bodyProblems(body, [])).toEqual({});
    expect(bodyProblems({ sections: [{ heading: "", text: "{{term.price}}" }] }, [])).toEqual({ "body.sections.0.text": [expect.stringContaining("{{term.price}} is not a placeholder")] });
    const term = { duration: "recurring_with_initial", start_date: null, end_date: null, initial_duration: "P2Y", renewal_period: "P1Y", notice_period: "P3M" } as const;
    const doc = renderDocument({ name: "Lease", body, dataFields: [], parties: [], term });
    const paragraph = doc.sections[0]!.blocks[0]!;
    expect(paragraph.kind === "paragraph" && paragraph.segments.map((s) => s.text).join("")).toBe(
      "Starts on signing, an initial period of 2 years, then renewed every 1 year; ends 2 years after the start (the initial period), then renewed until notice is given; renews every 1 year; notice 3 months.",
    );
    const preview = renderDocument({ name: "Preview", body, dataFields: [], parties: [] }).sections[0]!.blocks[0]!;
    expect(preview.kind === "paragraph" && preview.segments.map((s) => s.text).join("")).toContain("Starts [term.start_date],");

    const { renderContractPdf } = await import("@/lib/pdf/contract-pdf");
    const { execFileSync } = await import("node:child_process");
    const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dir = mkdtempSync(path.join(tmpdir(), "term-pdf-"));
    try {
      const file = path.join(dir, "c.pdf");
      writeFileSync(file, await renderContractPdf(doc, { contractId: 1, draft: true, creationDate: at("2026-01-01T00:00:00Z") }));
      const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
      for (const line of ["Duration: an initial period of 2 years, then renewed every 1 year", "Start: on signing", "Notice period: 3 months", "Renewal period: 1 year"]) expect(text).toContain(line);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
