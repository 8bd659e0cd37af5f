import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { verifyPassword } from "better-auth/crypto";
import type { PrismaClient } from "@/lib/db";
import { hashApiToken } from "@/lib/domain/access";
import { DEMO_ADMIN_EMAIL, DEMO_CONTRACT_COUNT, seedDemoData, seedIfEmpty } from "@/lib/seed/demo";
import { createContract } from "@/lib/db/seed/factories";
import { checkContractChain } from "@/lib/services/audit/check-contract-chain";
import { loadPublishReadiness } from "@/lib/services/contracts/load-publish-readiness";
import { fileStore } from "@/lib/services/files/file-store";
import { sealDueContracts } from "@/lib/services/seal/seal-contracts";
import { advanceDueLifecycles } from "@/lib/services/lifecycle/advance-due-lifecycles";
import { verifySealedPdf } from "@/lib/services/seal/verify-sealed-pdf";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

// The demo data set is made by the product's own operations (lib/seed/demo.ts). These tests hold
// every demo contract to what the product itself would have produced. Seeding and sealing run the
// services on PGlite (tens of seconds on a loaded two-core machine), so the limits are minutes.
const LIMIT_MS = 600_000;
const DAY_MS = 86_400_000;

let db: TestDatabase;
const startedAt = Date.now();
beforeAll(async () => {
  db = await createTestDatabase();
  await seedDemoData(db.prisma, { apiToken: "demo-token-0123456789", adminPassword: "correct horse", linkOrigin: "http://demo.example" });
  // What the app's sealing job does after the first start: seal every queued copy.
  while ((await sealDueContracts({ db: db.prisma })).claimed > 0);
}, LIMIT_MS);
afterAll(() => db.cleanup());

/** The story each final state must end with, after create → data fields → publish → signatures. */
const ENDINGS: Record<string, string[]> = {
  draft: [],
  pending: [],
  signed: ["contract.sign", "contract.seal"],
  declined: ["participant.decline", "contract.decline"],
  withdrawn: ["contract.withdraw"],
  overdue: ["contract.overdue"],
};

/** What the lifecycle job writes once a contract is signed and sealed. */
const AFTER_SIGNING = new Set(["contract.activate", "contract.renew", "contract.end", "contract.notice_warning_send", "contract.end_warning_send"]);

/**
 * Every way a contract differs from one the product's operations would have made: named by contract,
 * empty when all hold. The checks are the promises of docs/testing.md "The demo data".
 */
async function demoProblems(prisma: PrismaClient, upTo: number): Promise<string[]> {
  const problems: string[] = [];
  const contracts = await prisma.contract.findMany({
    orderBy: { id: "asc" },
    select: { id: true, state: true, createdAt: true, publishedAt: true, stateUpdatedAt: true, signingPeriodExpiresAt: true },
  });
  for (const contract of contracts) {
    const say = (what: string) => problems.push(`contract ${contract.id} (${contract.state}): ${what}`);
    const events = await prisma.auditEvent.findMany({ where: { contractId: contract.id }, orderBy: { chainSeq: "asc" }, select: { action: true, createdAt: true } });
    const actions = events.map((e) => e.action);
    const chain = await checkContractChain(prisma, contract.id);
    if (!chain.intact || chain.events !== events.length) say(`audit chain not intact (${chain.brokenAt?.reason ?? `${chain.events} of ${events.length} events`})`);
    if (actions[0] !== "contract.create") say(`its Activity does not start with its creation: [${actions.join(", ")}]`);
    // The times the rows carry are the times of their events, in the order of the chain.
    if (events.some((e, i) => i > 0 && e.createdAt < events[i - 1]!.createdAt)) say("its events' times go backwards");
    if ((events.at(-1)?.createdAt.getTime() ?? 0) > upTo) say("an event is dated in the future");
    if (events[0] && events[0].createdAt.getTime() !== contract.createdAt.getTime()) say("created_time is not its creation event's time");

    const publishAt = actions.indexOf("contract.publish");
    if (contract.state === "draft") {
      const making = ["contract.create", "data_field.update", "contract.document_upload", "placement.create"];
      if (publishAt !== -1 || actions.some((a) => !making.includes(a))) say(`a draft with more than creating, filling and placing its PDF's boxes: [${actions.join(", ")}]`);
      continue;
    }
    if (publishAt === -1) say("never published");
    else if (events[publishAt]!.createdAt.getTime() !== contract.publishedAt?.getTime()) say("published_time is not its publishing event's time");
    if (publishAt !== -1 && actions.slice(publishAt + 1).includes("data_field.update")) say("a data field changed after publishing");
    // Publishing checked it: everything but the state (no longer a draft) still holds, the text's fields filled.
    const { problems: readiness } = await loadPublishReadiness(prisma, contract.id);
    const unmet = readiness.filter((p) => p.path !== "state");
    if (unmet.length > 0) say(`published without being ready: ${unmet.map((p) => p.message).join("; ")}`);

    // A signed contract's life goes on after its seal (docs/lifecycle.md): its story ends at the seal, then those events.
    const story = actions.filter((action) => !AFTER_SIGNING.has(action));
    const ending = ENDINGS[contract.state] ?? [`(unknown state ${contract.state})`];
    const tail = story.slice(story.length - ending.length);
    if (tail.join() !== ending.join()) say(`its Activity ends [${story.slice(-3).join(", ")}], not [${ending.join(", ")}]`);
    if (contract.state === "pending" && contract.signingPeriodExpiresAt!.getTime() <= upTo) say("pending past its signing period");
    const ended = events.findLast((e) => e.action.startsWith("contract.") && e.action !== "contract.seal" && e.action !== "contract.stage_start" && !AFTER_SIGNING.has(e.action));
    if (contract.state !== "pending" && ended?.createdAt.getTime() !== contract.stateUpdatedAt.getTime()) say("state_updated_time is not the time of the event that set its state");

    if (contract.state === "signed") {
      const seal = await prisma.contractSeal.findUnique({ where: { contractId: contract.id } });
      const file = seal?.fileId ? await prisma.contractFile.findUnique({ where: { id: seal.fileId } }) : null;
      if (seal?.status !== "done" || !file) {
        say(`no sealed copy (seal ${seal?.status ?? "never queued"})`);
        continue;
      }
      if (!(file.size! > 0) || !/^[0-9a-f]{64}$/.test(file.sha256 ?? "") || file.type !== "verification") say("its sealed file has no size or SHA-256");
      const pdf = await fileStore().read(prisma, file.storageKey!);
      const verdict = await verifySealedPdf({ db: prisma, pdf });
      if (verdict.verdict !== "intact" || verdict.contract?.id !== contract.id) say(`its sealed copy does not verify: ${verdict.message}`);
      const text = pdfText(pdf);
      if (!text.includes("Completion certificate")) say("its sealed copy has no completion certificate");
      // An uploaded PDF's copy is its pages, each signer's name stamped in their boxes.
      const uploaded = await prisma.contractFile.findFirst({ where: { contractId: contract.id, type: "contract", storageKey: { not: null } } });
      if (uploaded) {
        const signers = await prisma.participant.findMany({ where: { party: { contractId: contract.id }, placements: { some: {} } }, select: { signedName: true } });
        if (!text.includes("Master services agreement") || signers.some((p) => !text.includes(p.signedName))) say("its sealed copy lacks the uploaded pages or a signer's stamped name");
      }
    }
  }
  return problems;
}

let scratch: string | undefined;
function pdfText(pdf: Uint8Array): string {
  scratch ??= mkdtempSync(path.join(tmpdir(), "seed-test-"));
  const file = path.join(scratch, "copy.pdf");
  writeFileSync(file, pdf);
  return execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
}
afterAll(() => scratch && rmSync(scratch, { recursive: true, force: true }));

test("the demo data set is created once, with the given token and password, and the users and templates of the README", async () => {
  expect(await seedIfEmpty(db.prisma)).toBeNull();
  const admin = await db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_ADMIN_EMAIL }, include: { accounts: true } });
  expect(admin.isAdmin).toBe(true);
  expect(await verifyPassword({ hash: admin.accounts[0]!.password!, password: "correct horse" })).toBe(true);
  const token = await db.prisma.apiToken.findUniqueOrThrow({ where: { tokenHash: hashApiToken("demo-token-0123456789") } });
  expect(token.prefix.length).toBeLessThan(16);
  expect(await db.prisma.workspace.count()).toBeGreaterThanOrEqual(3);

  // Non-admins have roles in some workspaces only; templates differ in what they offer.
  const viewer = await db.prisma.user.findUniqueOrThrow({ where: { email: "viewer@example.com" }, include: { memberships: true } });
  expect(viewer.memberships.every((m) => m.role === "viewer")).toBe(true);
  const channelSets = await db.prisma.template.findMany({ include: { deliveryChannels: true } });
  const shapes = new Set(channelSets.map((t) => t.deliveryChannels.map((c) => c.name).sort().join(",")));
  expect(shapes.size).toBeGreaterThanOrEqual(3);
  expect([...shapes]).toContain("email");
  expect([...shapes].some((s) => s.includes("sms"))).toBe(true);
});

test("every demo contract is one the product could have made: filled before publishing, its story in its Activity, its chain intact, sealed once signed", async () => {
  expect(await db.prisma.contract.count()).toBe(DEMO_CONTRACT_COUNT);
  expect(await demoProblems(db.prisma, Date.now())).toEqual([]);
  // Nothing was made before the organisation existed, and nothing after this test began.
  const first = await db.prisma.workspace.findFirstOrThrow({ orderBy: { createdAt: "asc" } });
  const oldest = await db.prisma.contract.findFirstOrThrow({ orderBy: { createdAt: "asc" } });
  expect(first.createdAt.getTime()).toBeLessThan(oldest.createdAt.getTime());
  expect(oldest.createdAt.getTime()).toBeGreaterThan(startedAt - 365 * 86_400_000);
}, LIMIT_MS);

test("the mix is a working team's: drafts, pending (some partly signed), signed, declined, withdrawn and overdue; ordered signing and e-mailed codes", async () => {
  const states = Object.fromEntries((await db.prisma.contract.groupBy({ by: ["state"], _count: true })).map((g) => [g.state, g._count]));
  for (const state of ["draft", "pending", "signed", "declined", "withdrawn", "overdue"]) expect(states[state] ?? 0, state).toBeGreaterThanOrEqual(2);
  expect(states.signed).toBeGreaterThanOrEqual(DEMO_CONTRACT_COUNT / 8);

  // Some are the customer's own PDF with boxes placed, in every stage of their life.
  const uploaded = await db.prisma.contract.groupBy({ by: ["state"], where: { files: { some: { type: "contract", storageKey: { not: null } } }, placements: { some: {} } }, _count: true });
  expect(uploaded.map((g) => g.state)).toEqual(expect.arrayContaining(["draft", "pending", "signed"]));

  const partlySigned = await db.prisma.contract.count({ where: { state: "pending", parties: { some: { participants: { some: { signState: "signed" } } } } } });
  expect(partlySigned).toBeGreaterThanOrEqual(1);
  expect(await db.prisma.auditEvent.count({ where: { action: "contract.stage_start" } })).toBeGreaterThanOrEqual(2);
  expect(await db.prisma.participant.count({ where: { twoStepMethod: "email", signState: "signed" } })).toBeGreaterThanOrEqual(1);
  // Some drafts still wait for values their text needs (the contract page's checklist names them).
  const drafts = await db.prisma.contract.findMany({ where: { state: "draft" }, select: { id: true } });
  const unready = await Promise.all(drafts.map(async (d) => (await loadPublishReadiness(db.prisma, d.id)).problems.length > 0));
  expect(unready.some(Boolean)).toBe(true);

  // Each workspace has a page of contracts and drafts to edit (the browser tests page through them).
  for (const workspace of await db.prisma.workspace.findMany({ select: { id: true, name: true } })) {
    expect(await db.prisma.contract.count({ where: { workspaceId: workspace.id } }), workspace.name).toBeGreaterThanOrEqual(25);
    expect(await db.prisma.contract.count({ where: { workspaceId: workspace.id, state: "draft" } }), workspace.name).toBeGreaterThanOrEqual(2);
  }

  const partyTypes = await db.prisma.party.groupBy({ by: ["type"], where: { myParty: false }, _count: true });
  expect(partyTypes.map((p) => p.type).sort()).toEqual(["company", "individual"]);
  const owners = await db.prisma.party.groupBy({ by: ["contractId"], where: { myParty: true }, _count: true });
  expect(owners).toHaveLength(DEMO_CONTRACT_COUNT);
  expect(owners.every((o) => o._count === 1)).toBe(true);
  // The invitations and the rest of the mail are in the outbox, as publishing and signing queued them.
  expect(await db.prisma.emailMessage.count({ where: { kind: "invitation" } })).toBeGreaterThanOrEqual(states.pending!);
}, LIMIT_MS);

test("signed contracts have a life after signing: running, renewed, ended, with notice deadlines and ends ahead", async () => {
  // What the lifecycle job does after the first start: bring every signed contract to now.
  for (let round = 0; round < 20 && (await advanceDueLifecycles({ db: db.prisma })).contracts > 0; round++);
  const signed = await db.prisma.contract.findMany({ where: { state: "signed" }, select: { lifecycleState: true, renewals: true, noticeDeadline: true, endsOn: true, durationType: true } });
  expect(signed.every((c) => c.lifecycleState !== null)).toBe(true);
  const soon = (date: Date | null, days: number) => date !== null && date.getTime() >= Date.now() - DAY_MS && date.getTime() <= Date.now() + days * DAY_MS;
  expect(signed.filter((c) => c.durationType === "recurring" && c.lifecycleState === "active").length, "recurring, running").toBeGreaterThanOrEqual(2);
  expect(signed.some((c) => c.renewals > 0), "renewed").toBe(true);
  expect(signed.some((c) => c.lifecycleState === "ended"), "ended").toBe(true);
  expect(signed.some((c) => soon(c.noticeDeadline, 120)), "a notice deadline ahead").toBe(true);
  expect(signed.some((c) => soon(c.endsOn, 150)), "an end ahead").toBe(true);
}, LIMIT_MS);

test("the checks catch a contract made past the rules (rows written directly, as the old seed did)", async () => {
  const template = await db.prisma.template.findFirstOrThrow({ where: { name: "Sales agreement with SMS" }, include: { workspaces: true } });
  const made = await createContract(db.prisma, {
    workspaceId: template.workspaces[0]!.workspaceId,
    templateId: template.id,
    state: "signed",
    counterparties: [{ type: "company", name: "Shortcut AB", participants: [{ name: "Sam Short", signState: "signed" }] }],
  });
  const found = await demoProblems(db.prisma, Date.now());
  expect(found).toEqual(
    [
      "its Activity does not start with its creation: []",
      "never published",
      "published without being ready: The text needs a value for the data field Order value (order_value).; The text needs a value for the data field Delivery date (delivery_date).",
      "its Activity ends [], not [contract.sign, contract.seal]",
      "state_updated_time is not the time of the event that set its state",
      "no sealed copy (seal never queued)",
    ].map((problem) => `contract ${made.id} (signed): ${problem}`),
  );
}, LIMIT_MS);
