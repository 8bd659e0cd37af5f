// The demo data set of the README, made by the product's own operations: every contract is created,
// filled, published, signed, declined, withdrawn or let go overdue through the services an API call or
// a signing page uses, at the past times its story needs (`atTime`, lib/clock.ts). So each demo
// contract is one the product could have produced: its text's data fields filled before publishing,
// its Activity the audit events of its story, its chain intact. The signature that completes a
// contract queues its sealed copy, as any signature does; the app's sealing job makes the copies
// when it runs (after the first start is ready, in the background). Users, workspaces, templates and
// the chosen API token have no service that makes them: the factories insert those rows.
//
// Above lib/services (it calls them), though it lives beside the database it fills: only
// instrumentation.ts, scripts/db-seed.ts, the benchmark and tests load it.
import { randomBytes } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { atTime } from "@/lib/clock";
import type { PrismaClient } from "@/lib/db";
import type { TUserActor } from "@/lib/domain/actor";
import { twoStepCode } from "@/lib/domain/signing";
import { env } from "@/lib/env";
import { logger, logNotice } from "@/lib/logger";
import { ZCreateContractRequestSchema, type TCreateContractRequestInput } from "@/lib/schemas";
import { createContract as createContractService } from "@/lib/services/contracts/create-contract";
import { expireOverdueContracts } from "@/lib/services/contracts/expire-overdue-contracts";
import { publishContract } from "@/lib/services/contracts/publish-contract";
import { withdrawContract } from "@/lib/services/contracts/withdraw-contract";
import { updateDataField } from "@/lib/services/data-fields/update-data-field";
import { uploadContractPdf } from "@/lib/services/files/upload-contract-pdf";
import { createPlacement } from "@/lib/services/placements/create-placement";
import { decideByLink } from "@/lib/services/signing/decide-by-link";
import { getSigningLink } from "@/lib/services/signing/get-signing-link";
import { openSigningLink } from "@/lib/services/signing/open-signing-link";
import { sendTwoStepCode } from "@/lib/services/signing/send-two-step-code";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";
import { createApiToken, createTemplate, createTemplateType, createUser, createWorkspace } from "@/lib/db/seed/factories";
import { EMPLOYMENT_BODY, NDA_BODY, PURCHASE_ORDER_BODY, SERVICE_AGREEMENT_BODY } from "@/lib/db/seed/template-bodies";
import { demoAgreementPdf, demoBoxesOf } from "./demo-pdf";

export const DEMO_ADMIN_EMAIL = "admin@example.com";
/** How many contracts the demo has; each is made through the services (README "Set-up"). */
export const DEMO_CONTRACT_COUNT = 80;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A small deterministic generator, so every fresh demo database looks the same. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const FIRST = ["Anna", "Erik", "Maja", "Lars", "Sofia", "Jonas", "Ingrid", "Mikael", "Elin", "Oskar", "Nora", "Emil"];
const LAST = ["Berg", "Lund", "Holm", "Nilsen", "Virtanen", "Jensen", "Strand", "Dahl", "Korhonen", "Sund"];
const COMPANIES = ["Nordic Timber AB", "Fjord Shipping AS", "Helsinki Robotics Oy", "Copenhagen Foods ApS", "Baltic Steel AB", "Aurora Software AS", "Lakeside Clinics Oy", "Greenfield Energy AB"];
const DECLINE_REASONS = ["The price is higher than we agreed on the phone.", "We need a longer notice period.", "", "Our legal team wants changes to the liability clause."];
const WITHDRAW_REASONS = ["Sent with the wrong terms; a corrected version follows.", "", "The customer chose another offer."];

/** What becomes of a demo contract. */
export type TDemoFate = "draft" | "pending" | "signed" | "declined" | "withdrawn" | "overdue";
/** Draft, pending (some partly signed), signed, declined, withdrawn and overdue, in the proportions of a working team. */
const FATES: TDemoFate[] = ["draft", "draft", "draft", "pending", "pending", "pending", "signed", "signed", "signed", "signed", "declined", "withdrawn", "overdue", "overdue"];

export interface SeedResult {
  adminPassword: string;
  apiToken: string;
  generated: { password: boolean; token: boolean };
}

export interface SeedOptions {
  apiToken?: string;
  adminPassword?: string;
  /** Where links in the demo's mail point (else PUBLIC_URL, else http://localhost:PORT). */
  linkOrigin?: string;
  /** The real time the story ends at; the contracts' times lie before it. */
  today?: Date;
}

const actorOf = (user: { id: number; name: string; email: string; isAdmin: boolean }, roles: [number, "editor" | "viewer"][] = []): TUserActor => ({
  kind: "user",
  userId: user.id,
  name: user.name,
  email: user.email,
  isAdmin: user.isAdmin,
  roles: new Map(roles),
  via: "session",
  apiTokenId: null,
});

/**
 * The demo data set: workspaces, users, templates, the API token and `DEMO_CONTRACT_COUNT` contracts
 * with their stories, the signed ones' seals queued. Runs the services' own transactions, so it takes
 * the client, not a transaction.
 */
export async function seedDemoData(db: PrismaClient, options: SeedOptions = {}): Promise<SeedResult> {
  const adminPassword = options.adminPassword ?? randomBytes(9).toString("base64url");
  const today = (options.today ?? new Date()).getTime();
  const linkOrigin = (options.linkOrigin ?? env().PUBLIC_URL ?? `http://localhost:${env().PORT}`).replace(/\/+$/, "");
  const rand = prng(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  /** A whole number from `from` up to (not including) `to`; `from` when the range is empty. */
  const between = (from: number, to: number) => (to <= from ? from : from + Math.floor(rand() * (to - from)));

  // The organisation exists before its first contract (half a year ago).
  const { sales, procurement, legal, admin, editor, buyer, apiToken, templates } = await atTime(today - 200 * DAY, async () => {
    const sales = await createWorkspace(db, { name: "Sales", companyName: "Acme Nordic AB", countryCode: "SE", description: "Customer agreements", timeZone: "Europe/Stockholm" });
    const procurement = await createWorkspace(db, { name: "Procurement", companyName: "Acme Nordic AB", countryCode: "SE", description: "Supplier agreements", timeZone: "Europe/Stockholm" });
    const legal = await createWorkspace(db, { name: "Legal Norway", companyName: "Acme Norge AS", countryCode: "NO", description: "Employment and NDAs", timeZone: "Europe/Oslo" });

    // One scrypt hash for everyone's (same) password: hashing is the slow part of making a user.
    const passwordHash = await hashPassword(adminPassword);
    const admin = await createUser(db, { name: "Ada Admin", email: DEMO_ADMIN_EMAIL, isAdmin: true, title: "Head of Legal", passwordHash });
    const editor = await createUser(db, {
      name: "Eddie Editor", email: "editor@example.com", title: "Account Executive", phoneNumber: "+46701234567", passwordHash,
      memberships: [{ workspaceId: sales.id, role: "editor" }, { workspaceId: legal.id, role: "viewer" }],
    });
    const buyer = await createUser(db, {
      name: "Bea Buyer", email: "buyer@example.com", title: "Procurement Lead", passwordHash,
      memberships: [{ workspaceId: procurement.id, role: "editor" }],
    });
    await createUser(db, {
      name: "Vera Viewer", email: "viewer@example.com", title: "Auditor", passwordHash,
      memberships: [{ workspaceId: sales.id, role: "viewer" }, { workspaceId: procurement.id, role: "viewer" }],
    });
    await createUser(db, { name: "Ivan Inactive", email: "inactive@example.com", active: false, passwordHash, memberships: [{ workspaceId: sales.id, role: "editor" }] });

    const { token: apiToken } = await createApiToken(db, { name: "Demo token", createdById: admin.id, token: options.apiToken });

    const types = [];
    for (const [name, description] of [
      ["Sales agreement", "Agreements with customers"],
      ["Non-disclosure agreement", "Mutual and one-way NDAs"],
      ["Employment contract", "Offers and employment terms"],
      ["Purchase order", "Orders to suppliers"],
      ["Consulting agreement", "Statements of work"],
    ] as const) {
      types.push(await createTemplateType(db, { name, description }));
    }

    const templates = {
      nda: await createTemplate(db, {
        name: "Mutual NDA", body: NDA_BODY, templateTypeId: types[1]!.id, workspaceIds: [sales.id, procurement.id, legal.id],
        deliveryChannels: ["email"], signMethods: ["standard_esign"], twoStepMethods: ["none"],
        dataFields: [{ name: "Effective date", placeholder: "YYYY-MM-DD", customId: "effective_date" }, { name: "Term (months)", defaultValue: "24", customId: "term" }],
        term: { durationType: "single_period", initialDuration: "P2Y" },
      }),
      sales: await createTemplate(db, {
        name: "Sales agreement with SMS", body: SERVICE_AGREEMENT_BODY, templateTypeId: types[0]!.id, workspaceIds: [sales.id, legal.id],
        deliveryChannels: [{ name: "email", preferred: true }, "sms", "same_device"],
        signMethods: [{ name: "standard_esign", preferred: true }, "sms"],
        twoStepMethods: [{ name: "none", preferred: true }, "sms"],
        dataFields: [
          { name: "Order value", placeholder: "EUR", customId: "order_value" },
          { name: "Delivery date", placeholder: "YYYY-MM-DD", customId: "delivery_date" },
          { name: "Payment terms", defaultValue: "30 days net", customId: "payment_terms" },
        ],
        term: { durationType: "recurring", renewalPeriod: "P1Y", noticePeriod: "P3M" },
      }),
      // Its sign methods need an eID provider this deployment does not have: its contracts are published and
      // declined, withdrawn or left to go overdue, never signed.
      employment: await createTemplate(db, {
        name: "Nordic BankID employment", body: EMPLOYMENT_BODY, templateTypeId: types[2]!.id, workspaceIds: [legal.id, procurement.id],
        deliveryChannels: ["email", { name: "email_and_sms", preferred: true }, "none"],
        signMethods: [{ name: "swedish_bankid", preferred: true }, "norwegian_bankid", "finnish_bankid"],
        twoStepMethods: ["none", "email"],
        dataFields: [{ name: "Start date", customId: "start_date" }, { name: "Salary", description: "Monthly, before tax", customId: "salary" }],
      }),
      // Signed with an e-mailed code (two-step authentication by e-mail).
      purchase: await createTemplate(db, {
        name: "Supplier purchase order", body: PURCHASE_ORDER_BODY, templateTypeId: types[3]!.id, workspaceIds: [procurement.id],
        deliveryChannels: [{ name: "email", preferred: true }, "email_and_sms"],
        signMethods: [{ name: "eid_sign", preferred: true }, "standard_esign", "handwritten_signature"],
        twoStepMethods: [{ name: "email", preferred: true }, "sms"],
        dataFields: [{ name: "PO number", customId: "po_number" }, { name: "Amount", customId: "amount" }, { name: "Currency", defaultValue: "SEK", customId: "currency" }],
      }),
    };
    return { sales, procurement, legal, admin, editor, buyer, apiToken, templates };
  });

  const staffOf = new Map([
    [sales.id, actorOf(editor, [[sales.id, "editor"], [legal.id, "viewer"]])],
    [procurement.id, actorOf(buyer, [[procurement.id, "editor"]])],
    [legal.id, actorOf(admin)],
  ]);
  const usable = new Map([
    [sales.id, [templates.nda, templates.sales]],
    [procurement.id, [templates.nda, templates.purchase, templates.employment]],
    [legal.id, [templates.nda, templates.sales, templates.employment]],
  ]);
  /** A value for each data field, as the owner would type it. */
  const valueOf = (customId: string, at: number): string => {
    const day = (offset: number) => new Date(at + offset).toISOString().slice(0, 10);
    switch (customId) {
      case "effective_date": return day(between(1, 14) * DAY);
      case "term": return pick(["12", "24", "36"]);
      case "order_value": return `EUR ${between(5, 400) * 250}`;
      case "delivery_date": return day(between(14, 90) * DAY);
      case "payment_terms": return pick(["30 days net", "14 days net", "45 days net"]);
      case "start_date": return day(between(20, 60) * DAY);
      case "salary": return `NOK ${between(38, 95) * 1000}`;
      case "po_number": return `PO-${between(10000, 99999)}`;
      case "amount": return String(between(10, 900) * 100);
      case "currency": return pick(["SEK", "EUR", "NOK"]);
      default: return "as agreed";
    }
  };
  const person = () => {
    const first = pick(FIRST);
    const last = pick(LAST);
    return {
      name: `${first} ${last}`,
      email: `${first}.${last}@example.org`.toLowerCase(),
      phone_number: `+4670${Math.floor(1_000_000 + rand() * 8_999_999)}`,
      title: pick(["CEO", "CFO", "Head of Sales", "Buyer", "", ""]),
    };
  };
  const secret = await loadSigningSecret(db);

  /**
   * The term's start for a contract of the templates with a duration (their defaults give the rest),
   * started months before today, so the demo has notice deadlines and ends ahead, renewals and ends behind.
   */
  const termOf = (templateId: number, i: number) => {
    // Sales agreements renew yearly with 3 months' notice: every third renewed lately, the rest with a deadline ahead or just past.
    // NDAs run two years: every other one ended, the rest end within months.
    const startedBefore =
      templateId === templates.sales.id ? (i % 3 === 0 ? between(370 * DAY, 400 * DAY) : between(200 * DAY, 330 * DAY))
      : templateId === templates.nda.id ? (i % 2 === 0 ? between(745 * DAY, 800 * DAY) : between(600 * DAY, 720 * DAY))
      : null;
    return startedBefore === null ? {} : { lifecycle_settings: { start_date: new Date(today - startedBefore).toISOString().slice(0, 10) } };
  };

  for (let i = 0; i < DEMO_CONTRACT_COUNT; i++) {
    const workspaceId = [sales.id, procurement.id, legal.id][i % 3]!;
    const staff = staffOf.get(workspaceId)!;
    const template = pick(usable.get(workspaceId)!);
    // Every workspace goes through all the fates in turn (stride 5 visits all 14), in its own order.
    let fate = FATES[(Math.floor(i / 3) * 5 + (i % 3) * 3) % FATES.length]!;
    // No signature can be made with an eID method here: such a contract ends another way.
    if (template.id === templates.employment.id && fate === "signed") fate = "declined";
    const ordered = fate !== "draft" && i % 7 === 3;

    // Counterparties: companies with one to three people (the first signs), or individuals.
    const parties: NonNullable<TCreateContractRequestInput["parties"]> = [];
    let stage = 0;
    for (let p = 0, count = 1 + Math.floor(rand() * 2); p < count; p++) {
      if (rand() < 0.6) {
        const people = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, k) => ({
          ...person(),
          signatory: k === 0,
          ...(ordered && k === 0 ? { sign_order: ++stage } : {}),
        }));
        parties.push({
          type: "company", name: pick(COMPANIES), country_code: pick(["SE", "NO", "FI", "DK"]),
          identification_number: `${between(100000, 999999)}-${between(1000, 9999)}`,
          participants: people,
        });
      } else {
        parties.push({
          type: "individual", country_code: "SE",
          participant: { ...person(), signatory: true, identification_number: `19${between(50, 99)}0101-${between(1000, 9999)}`, ...(ordered ? { sign_order: ++stage } : {}) },
        });
      }
    }
    const fields = await db.templateDataField.findMany({ where: { templateId: template.id }, orderBy: { position: "asc" }, select: { customId: true, defaultValue: true } });
    const firstName = parties[0]!.type === "company" ? parties[0]!.name : "individual";

    // The story's times: published contracts within their signing period, unless overdue; pending ones with 10 days left at least.
    const period = template.signingPeriodDays * DAY;
    const published =
      fate === "pending" ? today - between(1 * DAY, period - 10 * DAY)
      : fate === "overdue" ? today - between(period + DAY, period + 60 * DAY)
      : fate === "draft" ? today
      : today - between(3 * DAY, 170 * DAY);
    const created = fate === "draft" ? today - between(1 * HOUR, 60 * DAY) : published - between(30 * MINUTE, 3 * DAY);
    let t = created;
    /** The next step's time: `from` to `upTo` after the last one, never after `cap`. */
    const later = (from: number, upTo: number, cap = today - 10 * MINUTE) => (t = Math.min(t + between(from, upTo), cap));

    // Some values come with the creation (as a form sends them), the rest are filled in afterwards.
    const atCreation = fields.filter((f) => f.defaultValue === "" && rand() < 0.4).map((f) => ({ custom_id: f.customId, value: valueOf(f.customId, created) }));
    const request = ZCreateContractRequestSchema.parse({
      workspace_id: workspaceId,
      template_id: template.id,
      name: `${template.name} – ${firstName} #${i + 1}`,
      parties,
      ...(ordered ? { signing_order: "ordered" } : {}),
      ...(atCreation.length ? { data_fields: atCreation } : {}),
      ...termOf(template.id, i),
    });
    const contract = await atTime(t, () => createContractService({ db, actor: staff, request }));
    const contractId = contract.id;

    // Some sales agreements are the customer's own PDF, with a signature, name and date box for each signatory.
    if (template.id === templates.sales.id && i % 4 === 1) {
      const bytes = await demoAgreementPdf(firstName);
      const { pages } = await atTime(later(MINUTE, 5 * MINUTE), () => uploadContractPdf({ db, actor: staff, contractId, name: "Master services agreement.pdf", bytes }));
      const signers = await db.participant.findMany({ where: { party: { contractId }, signatory: true }, orderBy: { id: "asc" }, select: { id: true } });
      for (const [n, signer] of signers.entries()) {
        for (const box of demoBoxesOf(n)) {
          await atTime(later(10_000, MINUTE), () => createPlacement({ db, actor: staff, contractId, request: { ...box, participant_id: signer.id, page: pages! } }));
        }
      }
    }

    // Fill the fields still empty; a draft may stop half way.
    const sentAtCreation = new Set(atCreation.map((f) => f.custom_id));
    const toFill = fields.filter((f) => f.defaultValue === "" && !sentAtCreation.has(f.customId));
    const fillCount = fate === "draft" ? Math.floor(rand() * (toFill.length + 1)) : toFill.length;
    for (const field of toFill.slice(0, fillCount)) {
      const at = later(2 * MINUTE, fate === "draft" ? 2 * DAY : Math.max(3 * MINUTE, (published - t) / 2));
      await atTime(at, () => updateDataField({ db, actor: staff, contractId, dataField: { customId: field.customId }, value: valueOf(field.customId, at) }));
    }
    if (fate === "draft") continue;

    t = Math.max(t + MINUTE, published);
    await atTime(t, () => publishContract({ db, actor: staff, contractId, linkOrigin }));

    // The counterparty signatories, in signing order.
    const signatories = await db.participant.findMany({
      where: { party: { contractId, myParty: false }, signatory: true },
      orderBy: [{ signOrder: "asc" }, { id: "asc" }],
      select: { id: true, partyId: true, name: true, twoStepMethod: true },
    });
    const expiry = published + period;
    // Decisions come within the signing period (a withdrawn contract's in its first days, so it is taken back in time).
    const decideBy = Math.min(fate === "withdrawn" ? published + 10 * DAY : expiry, today) - HOUR;
    // How many sign before the end: all for signed; some (maybe none) for the others; a declined one's decliner is next.
    const canSign = template.id !== templates.employment.id;
    const signing = fate === "signed" ? signatories.length : canSign ? Math.floor(rand() * signatories.length) : 0;
    const ends = fate === "declined" ? signing + 1 : signing;
    for (const [k, signer] of signatories.slice(0, ends).entries()) {
      const at = later(10 * MINUTE, Math.max(11 * MINUTE, (decideBy - t) / (ends - k + 1)));
      const { url } = await atTime(at, () => getSigningLink({ db, actor: staff, contractId, partyId: signer.partyId, participantId: signer.id, linkOrigin }));
      const token = url.slice(url.lastIndexOf("/") + 1);
      await atTime(at, () => openSigningLink({ db, token }));
      let code: string | undefined;
      if (signer.twoStepMethod === "email") {
        await atTime(at + MINUTE, () => sendTwoStepCode({ db, token }));
        // The signer reads it in the e-mail; here it is derived as the mail is rendered.
        const { twoStepCodeNonce } = await db.participant.findUniqueOrThrow({ where: { id: signer.id }, select: { twoStepCodeNonce: true } });
        code = twoStepCode(secret, signer.id, twoStepCodeNonce!);
      }
      const client = { ip: `192.0.2.${10 + ((i * 7 + k) % 200)}`, userAgent: "Mozilla/5.0 (X11; Linux x86_64) demo data" };
      const decision = fate === "declined" && k === signing
        ? { kind: "decline" as const, reason: pick(DECLINE_REASONS), code }
        : { kind: "sign" as const, fullName: signer.name, code };
      await atTime(at + 2 * MINUTE, () => decideByLink({ db, token, decision, client }));
      t = at + 2 * MINUTE;
    }
    if (fate === "withdrawn") {
      await atTime(later(HOUR, 3 * DAY, Math.min(expiry, today) - 10 * MINUTE), () => withdrawContract({ db, actor: staff, contractId, reason: pick(WITHDRAW_REASONS), linkOrigin }));
    }
    if (fate === "overdue") {
      // The overdue check runs every half minute: it finds the contract soon after its period ends.
      await atTime(expiry + between(MINUTE, 30 * MINUTE), () => expireOverdueContracts({ db }));
    }
  }

  // The story's mail went out (or not) in the past, to example.org: kept for the Outbox, never sent
  // now, even where SMTP_URL is set. Mail the app writes from here on (reminders, the seals') is sent.
  await db.emailMessage.updateMany({ where: { status: "queued" }, data: { status: "kept" } });

  return {
    adminPassword,
    apiToken,
    generated: { password: options.adminPassword === undefined, token: options.apiToken === undefined },
  };
}

/** Says whether the demo seed ran to its end: "started" while it runs, "done" after. */
const SEED_SETTING = "demo_seed";

/**
 * Seeds the demo data when the database has no users; prints what to sign in with. The seed runs many
 * transactions: one stopped part way leaves part of the demo, which every later start reports.
 */
export async function seedIfEmpty(prisma: PrismaClient): Promise<SeedResult | null> {
  if ((await prisma.user.count()) > 0) {
    const marker = await prisma.appSetting.findUnique({ where: { key: SEED_SETTING } });
    if (marker?.value === "started") logger.error("the demo data is incomplete: its seeding stopped part way (delete the embedded database's folder, .data/, for a fresh one)");
    return null;
  }
  const { SEED_API_TOKEN, SEED_ADMIN_PASSWORD } = env();
  const started = performance.now();
  await prisma.appSetting.upsert({ where: { key: SEED_SETTING }, create: { key: SEED_SETTING, value: "started" }, update: { value: "started" } });
  const result = await seedDemoData(prisma, { apiToken: SEED_API_TOKEN, adminPassword: SEED_ADMIN_PASSWORD });
  await prisma.appSetting.update({ where: { key: SEED_SETTING }, data: { value: "done" } });
  logger.info({ contracts: DEMO_CONTRACT_COUNT, seconds: Math.round((performance.now() - started) / 100) / 10 }, "demo data made");
  logNotice(`Demo data created. Sign in as ${DEMO_ADMIN_EMAIL}`, {
    admin_password: result.generated.password ? `${result.adminPassword} (shown once)` : "from SEED_ADMIN_PASSWORD",
    api_token: result.generated.token ? `${result.apiToken} (shown once)` : "from SEED_API_TOKEN",
  });
  return result;
}
