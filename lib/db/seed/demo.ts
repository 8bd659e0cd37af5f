import { randomBytes } from "node:crypto";
import type { PrismaClient, Tx } from "@/lib/db";
import type { TContractState } from "@/lib/domain/enums";
import { env } from "@/lib/env";
import { logNotice } from "@/lib/logger";
import {
  createApiToken,
  createContract,
  createTemplate,
  createTemplateType,
  createUser,
  createWorkspace,
  type CounterpartyInput,
  type ParticipantInput,
} from "./factories";
import { EMPLOYMENT_BODY, NDA_BODY, PURCHASE_ORDER_BODY, SERVICE_AGREEMENT_BODY } from "./template-bodies";

export const DEMO_ADMIN_EMAIL = "admin@example.com";
export const DEMO_CONTRACT_COUNT = 200;

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
const STATES: TContractState[] = ["draft", "draft", "draft", "pending", "pending", "signed", "signed", "declined", "overdue"];

export interface SeedResult {
  adminPassword: string;
  apiToken: string;
  generated: { password: boolean; token: boolean };
}

/** The demo data set of the README: workspaces, users, templates and ~200 contracts. */
export async function seedDemoData(db: Tx, options: { apiToken?: string; adminPassword?: string } = {}): Promise<SeedResult> {
  const adminPassword = options.adminPassword ?? randomBytes(9).toString("base64url");
  const rand = prng(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

  const sales = await createWorkspace(db, { name: "Sales", companyName: "Acme Nordic AB", countryCode: "SE", description: "Customer agreements" });
  const procurement = await createWorkspace(db, { name: "Procurement", companyName: "Acme Nordic AB", countryCode: "SE", description: "Supplier agreements" });
  const legal = await createWorkspace(db, { name: "Legal Norway", companyName: "Acme Norge AS", countryCode: "NO", description: "Employment and NDAs" });

  const admin = await createUser(db, { name: "Ada Admin", email: DEMO_ADMIN_EMAIL, isAdmin: true, title: "Head of Legal", password: adminPassword });
  const editor = await createUser(db, {
    name: "Eddie Editor", email: "editor@example.com", title: "Account Executive", phoneNumber: "+46701234567", password: adminPassword,
    memberships: [{ workspaceId: sales.id, role: "editor" }, { workspaceId: legal.id, role: "viewer" }],
  });
  const buyer = await createUser(db, {
    name: "Bea Buyer", email: "buyer@example.com", title: "Procurement Lead", password: adminPassword,
    memberships: [{ workspaceId: procurement.id, role: "editor" }],
  });
  await createUser(db, {
    name: "Vera Viewer", email: "viewer@example.com", title: "Auditor", password: adminPassword,
    memberships: [{ workspaceId: sales.id, role: "viewer" }, { workspaceId: procurement.id, role: "viewer" }],
  });
  await createUser(db, { name: "Ivan Inactive", email: "inactive@example.com", active: false, password: adminPassword, memberships: [{ workspaceId: sales.id, role: "editor" }] });

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

  const templates = [
    await createTemplate(db, {
      name: "Mutual NDA", body: NDA_BODY, templateTypeId: types[1]!.id, workspaceIds: [sales.id, procurement.id, legal.id],
      deliveryChannels: ["email"], signMethods: ["standard_esign"], twoStepMethods: ["none"],
      dataFields: [{ name: "Effective date", placeholder: "YYYY-MM-DD", customId: "effective_date" }, { name: "Term (months)", defaultValue: "24", customId: "term" }],
    }),
    await createTemplate(db, {
      name: "Sales agreement with SMS", body: SERVICE_AGREEMENT_BODY, templateTypeId: types[0]!.id, workspaceIds: [sales.id, legal.id],
      deliveryChannels: [{ name: "email", preferred: true }, "sms", "same_device"],
      signMethods: [{ name: "standard_esign", preferred: true }, "sms"],
      twoStepMethods: [{ name: "none", preferred: true }, "sms"],
      dataFields: [
        { name: "Order value", placeholder: "EUR", customId: "order_value" },
        { name: "Delivery date", placeholder: "YYYY-MM-DD", customId: "delivery_date" },
        { name: "Payment terms", defaultValue: "30 days net", customId: "payment_terms" },
      ],
    }),
    await createTemplate(db, {
      name: "Nordic BankID employment", body: EMPLOYMENT_BODY, templateTypeId: types[2]!.id, workspaceIds: [legal.id, procurement.id],
      deliveryChannels: ["email", { name: "email_and_sms", preferred: true }, "none"],
      signMethods: [{ name: "swedish_bankid", preferred: true }, "norwegian_bankid", "finnish_bankid"],
      twoStepMethods: ["none", "email"],
      dataFields: [{ name: "Start date", customId: "start_date" }, { name: "Salary", description: "Monthly, before tax", customId: "salary" }],
    }),
    await createTemplate(db, {
      name: "Supplier purchase order", body: PURCHASE_ORDER_BODY, templateTypeId: types[3]!.id, workspaceIds: [procurement.id],
      deliveryChannels: [{ name: "email", preferred: true }, "email_and_sms"],
      signMethods: [{ name: "eid_sign", preferred: true }, "standard_esign", "handwritten_signature"],
      twoStepMethods: [{ name: "email", preferred: true }, "sms"],
      dataFields: [{ name: "PO number", customId: "po_number" }, { name: "Amount", customId: "amount" }, { name: "Currency", defaultValue: "SEK", customId: "currency" }],
    }),
  ];

  const usable = new Map<number, typeof templates>();
  for (const ws of [sales, procurement, legal]) {
    const rows = await db.templateWorkspace.findMany({ where: { workspaceId: ws.id } });
    usable.set(ws.id, templates.filter((t) => rows.some((r) => r.templateId === t.id)));
  }
  const ownerOf = new Map([[sales.id, editor], [procurement.id, buyer], [legal.id, admin]]);
  const channelsOf = new Map<number, ParticipantInput>([
    [templates[0]!.id, { deliveryChannel: "email", signMethod: "standard_esign", twoStepMethod: "none" }],
    [templates[1]!.id, { deliveryChannel: "email", signMethod: "standard_esign", twoStepMethod: "none" }],
    [templates[2]!.id, { deliveryChannel: "email_and_sms", signMethod: "swedish_bankid", twoStepMethod: "none" }],
    [templates[3]!.id, { deliveryChannel: "email", signMethod: "eid_sign", twoStepMethod: "email" }],
  ]);

  const person = (): ParticipantInput => {
    const first = pick(FIRST);
    const last = pick(LAST);
    return {
      name: `${first} ${last}`,
      email: `${first}.${last}@example.org`.toLowerCase(),
      phoneNumber: `+4670${Math.floor(1_000_000 + rand() * 8_999_999)}`,
      title: pick(["CEO", "CFO", "Head of Sales", "Buyer", "", ""]),
    };
  };

  const start = Date.now() - 180 * 24 * 3600 * 1000;
  for (let i = 0; i < DEMO_CONTRACT_COUNT; i++) {
    const ws = [sales, procurement, legal][i % 3]!;
    const template = pick(usable.get(ws.id)!);
    const state = pick(STATES);
    const options = channelsOf.get(template.id)!;
    const signState = state === "signed" ? "signed" : state === "declined" ? "declined" : "undecided";
    const counterparties: CounterpartyInput[] = [];
    const partyCount = 1 + Math.floor(rand() * 2);
    for (let p = 0; p < partyCount; p++) {
      if (rand() < 0.6) {
        const n = 1 + Math.floor(rand() * 3);
        counterparties.push({
          type: "company", name: pick(COMPANIES), countryCode: pick(["SE", "NO", "FI", "DK"]),
          identificationNumber: `${Math.floor(100000 + rand() * 899999)}-${Math.floor(1000 + rand() * 8999)}`,
          participants: Array.from({ length: n }, (_, k) => ({ ...person(), ...options, signatory: k === 0, signState: k === 0 ? signState : "undecided", deliveryStatus: state === "draft" ? "not_sent" : "success" })),
        });
      } else {
        counterparties.push({ type: "individual", countryCode: "SE", participant: { ...person(), ...options, identificationNumber: `19${Math.floor(50 + rand() * 49)}0101-${Math.floor(1000 + rand() * 8999)}`, signState, deliveryStatus: state === "draft" ? "not_sent" : "success" } });
      }
    }
    const owner = ownerOf.get(ws.id)!;
    await createContract(db, {
      workspaceId: ws.id, templateId: template.id, state, owner,
      name: `${template.name} – ${counterparties[0]!.type === "company" ? (counterparties[0] as { name: string }).name : "individual"} #${i + 1}`,
      counterparties, createdAt: new Date(start + i * 18 * 3600 * 1000 + Math.floor(rand() * 3600_000)),
    });
  }

  return {
    adminPassword,
    apiToken,
    generated: { password: options.adminPassword === undefined, token: options.apiToken === undefined },
  };
}

/** Seeds the demo data in one transaction when the database has no users; prints what to sign in with. */
export async function seedIfEmpty(prisma: PrismaClient): Promise<SeedResult | null> {
  if ((await prisma.user.count()) > 0) return null;
  const { SEED_API_TOKEN, SEED_ADMIN_PASSWORD } = env();
  const result = await prisma.$transaction(
    (tx) => seedDemoData(tx, { apiToken: SEED_API_TOKEN, adminPassword: SEED_ADMIN_PASSWORD }),
    { timeout: 300_000, maxWait: 60_000 },
  );
  logNotice(`Demo data created. Sign in as ${DEMO_ADMIN_EMAIL}`, {
    admin_password: result.generated.password ? `${result.adminPassword} (shown once)` : "from SEED_ADMIN_PASSWORD",
    api_token: result.generated.token ? `${result.apiToken} (shown once)` : "from SEED_API_TOKEN",
  });
  return result;
}
