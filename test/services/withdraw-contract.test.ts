// Withdrawing with a reason (docs/api.md "Withdrawing"): one schema for the API and the page, the
// reason kept in the audit event, told in the participants' e-mail and carried by the webhook.
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { buildWebhookEventData } from "@/lib/api/webhook-event-data";
import { serializeAuditEvent } from "@/lib/api/serializers/audit-event";
import { createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import type { TUserActor } from "@/lib/domain/actor";
import { ZWithdrawContractRequestSchema } from "@/lib/schemas/publish";
import { ZWebhookPayloadSchema } from "@/lib/schemas/webhook";
import { listContractEvents } from "@/lib/services/audit/list-contract-events";
import { publishContract } from "@/lib/services/contracts/publish-contract";
import { withdrawContract } from "@/lib/services/contracts/withdraw-contract";
import { createWebhook } from "@/lib/services/webhooks/create-webhook";
import { fanOutWebhookEvents } from "@/lib/services/webhooks/fan-out-webhook-events";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { actorOf } from "@/test/services/read-fixtures";

const ORIGIN = "http://withdraw.test";
let db: TestDatabase;
let staff: TUserActor;
let ws: { id: number };
let template: { id: number };

beforeAll(async () => {
  db = await createTestDatabase();
  ws = await createWorkspace(db.prisma, {});
  template = await createTemplate(db.prisma, { workspaceIds: [ws.id] });
  staff = await actorOf(db.prisma, await createUser(db.prisma, { name: "Wanda Staff", email: `wanda.${Date.now()}@example.org`, isAdmin: true }));
  await createWebhook({ db: db.prisma, actor: staff, callbackUrl: "http://127.0.0.1:9/hook", linkOrigin: ORIGIN, allowPrivate: true, events: ["contract.withdraw"] });
});
afterAll(() => db.cleanup());

const reasonProblem = (reason: unknown) => {
  const parsed = ZWithdrawContractRequestSchema.safeParse({ reason });
  return parsed.success ? null : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("the reason's schema (the API's and the page's)", () => {
  test("optional, trimmed, line breaks kept (CR LF as LF), at most 2,000 characters", () => {
    expect(ZWithdrawContractRequestSchema.parse({})).toEqual({ reason: "" });
    expect(ZWithdrawContractRequestSchema.parse({ reason: "  Wrong price\r\nand date\rsorry  " })).toEqual({ reason: "Wrong price\nand date\nsorry" });
    expect(reasonProblem("x".repeat(2000))).toBeNull();
    expect(reasonProblem("x".repeat(2001))).toEqual(["reason: must be at most 2,000 characters"]);
  });

  test.each([["a tab", "a\tb"], ["NUL", "a\u0000b"], ["BEL", "a\u0007b"], ["a C1 control", "a\u0085b"], ["a right-to-left override", "a\u202eb"], ["a line separator", "a\u2028b"]])("%s is refused", (_, reason) => {
    expect(reasonProblem(reason)).toEqual(["reason: must be plain text: line breaks are fine, tabs and other control characters are not"]);
  });
});

async function pendingContract(name: string) {
  const contract = await createContract(db.prisma, {
    workspaceId: ws.id,
    templateId: template.id,
    owner: { id: staff.userId, name: staff.name, email: staff.email },
    counterparties: [{ type: "individual", participant: { name, email: `${name.toLowerCase().replace(" ", ".")}@example.org` } }],
  });
  await publishContract({ db: db.prisma, actor: staff, contractId: contract.id, linkOrigin: ORIGIN });
  return contract.id;
}

/** The body of the contract.withdraw delivery of a contract, as queued for the subscription. */
async function webhookBody(contractId: number) {
  await fanOutWebhookEvents({ db: db.prisma, buildData: buildWebhookEventData });
  const event = await db.prisma.auditEvent.findFirstOrThrow({ where: { contractId, action: "contract.withdraw" } });
  const delivery = await db.prisma.webhookDelivery.findFirstOrThrow({ where: { auditEventId: event.id } });
  return JSON.parse(delivery.payload) as Record<string, unknown> & { data: { id: number; state: string } };
}

describe("a withdrawal's reason", () => {
  test("is in the audit event (the history), the participants' e-mail and the contract.withdraw webhook", async () => {
    const id = await pendingContract("Rita Reason");
    const { reason } = ZWithdrawContractRequestSchema.parse({ reason: "The price was wrong.\r\nA new contract follows." });
    await withdrawContract({ db: db.prisma, actor: staff, contractId: id, reason, linkOrigin: ORIGIN });

    const { rows } = await listContractEvents({ db: db.prisma, actor: staff, contractId: id, pagination: { limit: 100, offset: 0 } });
    const withdrawn = rows.map(serializeAuditEvent).find((e) => e.action === "contract.withdraw")!;
    expect(withdrawn.changes).toContainEqual({ field: "reason", from: null, to: "The price was wrong.\nA new contract follows." });

    const mail = await db.prisma.emailMessage.findFirstOrThrow({ where: { contractId: id, kind: "withdrawn", toAddress: "rita.reason@example.org" } });
    expect(mail.body).toContain("Their reason: The price was wrong.\nA new contract follows.");

    const body = await webhookBody(id);
    expect(ZWebhookPayloadSchema("contract.withdraw").safeParse(body).success).toBe(true);
    expect([body.type, body.reason, body.data.id, body.data.state]).toEqual(["contract.withdraw", "The price was wrong.\nA new contract follows.", id, "withdrawn"]);
  });

  test("none given: the webhook's reason is empty and the e-mail says none", async () => {
    const id = await pendingContract("Nils None");
    await withdrawContract({ db: db.prisma, actor: staff, contractId: id, reason: "", linkOrigin: ORIGIN });
    expect((await webhookBody(id)).reason).toBe("");
    expect((await db.prisma.emailMessage.findFirstOrThrow({ where: { contractId: id, kind: "withdrawn" } })).body).not.toContain("reason");
  });
});
