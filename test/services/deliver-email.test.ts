// The outbox deliverer (docs/mail.md) against a real SMTP server (smtp-server on 127.0.0.1) and a
// real database: rendering at send time, retries with back-off, permanent failures, expired leases,
// and two deliverers on one PostgreSQL delivering each message exactly once.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PrismaClient } from "@/lib/db";
import { createPrismaClient } from "@/lib/db/pool";
import { createContract } from "@/lib/db/seed/factories";
import { newNonce, signingToken, twoStepCode } from "@/lib/domain/signing";
import { claimDueEmails } from "@/lib/services/mail/claim-due-emails";
import { createSmtpTransport } from "@/lib/services/mail/create-smtp-transport";
import { deliverDueEmails, MAX_EMAIL_ATTEMPTS } from "@/lib/services/mail/deliver-email";
import { startMailDeliverer } from "@/lib/services/mail/start-mail-deliverer";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { newSigningLinkData } from "@/lib/services/signing/new-signing-link";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";
import { testDatabaseKind, type TestDatabase } from "@/test/helpers/db";
import { addressText, startTestSmtpServer, type TTestSmtpServer } from "@/test/helpers/smtp";
import { createTestWorld } from "@/test/helpers/world";

const FROM = "Contracts <contracts@example.test>";
const ORIGIN = "https://contracts.example.test";

let db: TestDatabase;
let contractId: number;
let secret: string;

beforeAll(async () => {
  const world = await createTestWorld({ workspace: { name: "Mail" }, members: ["editor"] });
  db = world.db;
  const contract = await createContract(db.prisma, { workspaceId: world.ws.id, templateId: world.template.id, state: "pending", owner: world.members.editor });
  contractId = contract.id;
  secret = await loadSigningSecret(db.prisma);
});
afterAll(() => db.cleanup());

/** A counterparty participant of the contract, published (with nonces) unless told otherwise. */
async function participant(options: { published?: boolean } = {}) {
  const party = await db.prisma.party.create({
    data: {
      contractId,
      type: "individual",
      name: "Ann",
      participants: {
        create: {
          name: "Ann Andersson",
          email: `ann-${Math.random().toString(36).slice(2)}@example.org`,
          deliveryChannel: "email",
          deliveryStatus: "pending",
          signMethod: "standard_esign",
          twoStepMethod: "email",
          signingNonce: options.published === false ? null : newNonce(),
          twoStepCodeNonce: options.published === false ? null : newNonce(),
        },
      },
    },
    include: { participants: true },
  });
  return party.participants[0]!;
}

async function queue(p: { id: number; email: string } | null, data: { kind?: string; subject?: string; body?: string } = {}) {
  return db.prisma.emailMessage.create({
    data: {
      kind: data.kind ?? "invitation",
      contractId,
      participantId: p?.id ?? null,
      toAddress: p?.email ?? "nobody@example.org",
      subject: data.subject ?? "Please sign",
      body: data.body ?? "Sign here: {{signing_link}}\nYour code: {{code}}\n",
      linkOrigin: ORIGIN,
      status: "queued",
    },
  });
}

const row = (id: number) => db.prisma.emailMessage.findUniqueOrThrow({ where: { id } });
const deliveryStatus = async (id: number) => (await db.prisma.participant.findUniqueOrThrow({ where: { id } })).deliveryStatus;

/** Clears the outbox so each test sees only its own messages. */
async function emptyOutbox() {
  await db.prisma.emailMessage.deleteMany({});
}

async function withSmtp<T>(options: Parameters<typeof startTestSmtpServer>[0], body: (smtp: TTestSmtpServer, run: (extra?: object) => ReturnType<typeof deliverDueEmails>) => Promise<T>) {
  await emptyOutbox();
  const smtp = await startTestSmtpServer(options);
  const transport = createSmtpTransport(smtp.url);
  try {
    return await body(smtp, (extra = {}) => deliverDueEmails({ prisma: db.prisma, transport, from: FROM, ...extra }));
  } finally {
    transport.close();
    await smtp.close();
  }
}

describe("sending", () => {
  test("a queued invitation is sent with its link and code filled in, From/To/Subject as queued; the participant's delivery_status becomes success", async () => {
    await withSmtp({ auth: { user: "mailer", pass: "s3cret pass" } }, async (smtp, run) => {
      const ann = await participant();
      const message = await queue(ann, { subject: "Please sign: Lease" });
      expect(await run()).toMatchObject({ claimed: 1, sent: 1, failed: 0, retrying: 0 });

      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      const link = `${ORIGIN}/sign/${signingToken(secret, ann.id, ann.signingNonce!)}`;
      expect(mail!.parsed.text).toBe(`Sign here: ${link}\nYour code: ${twoStepCode(secret, ann.id, ann.twoStepCodeNonce!)}\n`);
      expect(mail!.parsed.subject).toBe("Please sign: Lease");
      expect(addressText(mail!.parsed.from)).toBe(`"Contracts" <contracts@example.test>`);
      expect(addressText(mail!.parsed.to)).toBe(ann.email);
      expect(mail!.envelopeTo).toEqual([ann.email]);

      const after = await row(message.id);
      expect(after).toMatchObject({ status: "sent", attempts: 1, lastError: "", leaseUntil: null });
      expect(after.sentAt).toBeInstanceOf(Date);
      // The stored body still holds the placeholders: no credential in the database.
      expect(after.body).toContain("{{signing_link}}");
      expect(await deliveryStatus(ann.id)).toBe("success");
    });
  });

  test("a message of another kind leaves delivery_status alone; a sent message is not sent again", async () => {
    await withSmtp({}, async (smtp, run) => {
      const ann = await participant();
      await queue(ann, { kind: "signed", body: "Signed, thanks." });
      expect(await run()).toMatchObject({ sent: 1 });
      expect(await run()).toMatchObject({ claimed: 0 });
      expect(smtp.received).toHaveLength(1);
      expect(await deliveryStatus(ann.id)).toBe("pending");
    });
  });

  test("a 4xx reply is retried after the back-off, then sent", async () => {
    await withSmtp({ reply: (n) => (n === 0 ? { code: 451, message: "Try again later" } : undefined) }, async (smtp, run) => {
      const ann = await participant();
      const message = await queue(ann);
      const before = Date.now();
      expect(await run()).toMatchObject({ retrying: 1 });
      const after = Date.now();
      const queued = await row(message.id);
      expect(queued).toMatchObject({ status: "queued", attempts: 1, leaseUntil: null });
      expect(queued.lastError).toMatch(/451 Try again later/);
      // backoffDelay(1): 5 s ± 20%, from the failed attempt, somewhere in the run (however long a
      // busy machine took for it).
      expect(queued.nextAttemptAt.getTime() - before).toBeGreaterThanOrEqual(3_900);
      expect(queued.nextAttemptAt.getTime() - after).toBeLessThanOrEqual(6_100);
      expect(await deliveryStatus(ann.id)).toBe("pending");

      // Not due yet: nothing is claimed.
      expect(await run()).toMatchObject({ claimed: 0 });
      // The back-off passes.
      await db.prisma.emailMessage.update({ where: { id: message.id }, data: { nextAttemptAt: new Date(Date.now() - 1_000) } });
      expect(await run()).toMatchObject({ sent: 1 });
      expect(await row(message.id)).toMatchObject({ status: "sent", attempts: 2, lastError: "" });
      expect(smtp.offered).toBe(2);
      expect(smtp.received).toHaveLength(1);
      expect(await deliveryStatus(ann.id)).toBe("success");
    });
  });

  test(`transient failures are given up after ${MAX_EMAIL_ATTEMPTS} attempts: failed, delivery_status failure`, async () => {
    await withSmtp({ reply: () => ({ code: 421, message: "Service not available" }) }, async (smtp, run) => {
      const ann = await participant();
      const message = await queue(ann);
      for (let i = 1; i < MAX_EMAIL_ATTEMPTS; i++) expect(await run({ retryDelay: () => 0 })).toMatchObject({ retrying: 1 });
      expect(await run({ retryDelay: () => 0 })).toMatchObject({ failed: 1 });
      expect(await row(message.id)).toMatchObject({ status: "failed", attempts: MAX_EMAIL_ATTEMPTS });
      expect(await run({ retryDelay: () => 0 })).toMatchObject({ claimed: 0 });
      expect(smtp.offered).toBe(MAX_EMAIL_ATTEMPTS);
      expect(await deliveryStatus(ann.id)).toBe("failure");
    });
  });

  test("a 5xx reply fails the message at once; an invitation's delivery_status becomes failure", async () => {
    await withSmtp({ reply: () => ({ code: 550, message: "No such user here" }) }, async (smtp, run) => {
      const ann = await participant();
      const message = await queue(ann);
      expect(await run()).toMatchObject({ failed: 1 });
      const failed = await row(message.id);
      expect(failed).toMatchObject({ status: "failed", attempts: 1, leaseUntil: null });
      expect(failed.lastError).toMatch(/550 No such user here/);
      expect(failed.lastError).not.toContain("/sign/");
      expect(await deliveryStatus(ann.id)).toBe("failure");
      expect(await run()).toMatchObject({ claimed: 0 });
      expect(smtp.offered).toBe(1);
    });
  });

  test("a refused invitation keeps the server's reason and when on the participant, with one participant.delivery_failure event; a new link clears it", async () => {
    await withSmtp({ refuseRecipient: () => ({ code: 550, message: "5.1.1 Mailbox unknown" }) }, async (_smtp, run) => {
      const ann = await participant();
      await queue(ann);
      await run();
      const failed = await db.prisma.participant.findUniqueOrThrow({ where: { id: ann.id } });
      expect(failed.deliveryFailure).toMatch(/550 5\.1\.1 Mailbox unknown/);
      expect(failed.deliveryFailedAt).not.toBeNull();
      const events = await db.prisma.auditEvent.findMany({ where: { action: "participant.delivery_failure", entityId: ann.id } });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ via: "system", contractId, after: { delivery_status: "failure", email: ann.email } });
      await db.prisma.participant.update({ where: { id: ann.id }, data: await newSigningLinkData(db.prisma, failed) });
      expect(await db.prisma.participant.findUniqueOrThrow({ where: { id: ann.id } })).toMatchObject({ deliveryFailedAt: null, deliveryFailure: "" });
    });
  });

  test("an old invitation failing after a newer one was queued (a corrected address) records no failure", async () => {
    await withSmtp({ refuseRecipient: (to) => (to.startsWith("old-") ? { code: 550, message: "No such user" } : undefined) }, async (_smtp, run) => {
      const ann = await participant();
      await queue({ id: ann.id, email: `old-${ann.email}` });
      await queue(ann);
      expect(await run()).toMatchObject({ failed: 1, sent: 1 });
      expect(await db.prisma.participant.findUniqueOrThrow({ where: { id: ann.id } })).toMatchObject({ deliveryStatus: "success", deliveryFailedAt: null });
      expect(await db.prisma.auditEvent.count({ where: { action: "participant.delivery_failure", entityId: ann.id } })).toBe(0);
    });
  });

  test("an unreachable server is a transient failure", async () => {
    await emptyOutbox();
    const ann = await participant();
    const message = await queue(ann);
    // A port nothing listens on: the server just closed.
    const gone = await startTestSmtpServer();
    await gone.close();
    const transport = createSmtpTransport(gone.url);
    expect(await deliverDueEmails({ prisma: db.prisma, transport, from: FROM })).toMatchObject({ retrying: 1 });
    expect((await row(message.id)).lastError).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
    transport.close();
  });
});

describe("messages that cannot be rendered fail with a clear last_error, and are not sent", () => {
  test("the participant has no signing nonce", async () => {
    await withSmtp({}, async (smtp, run) => {
      const bo = await participant({ published: false });
      const message = await queue(bo);
      expect(await run()).toMatchObject({ failed: 1 });
      expect(await row(message.id)).toMatchObject({ status: "failed", lastError: `cannot render: participant ${bo.id} has no signing link (not published, or withdrawn)` });
      expect(smtp.offered).toBe(0);
      expect(await deliveryStatus(bo.id)).toBe("failure");
    });
  });

  test("the participant no longer exists", async () => {
    await withSmtp({}, async (smtp, run) => {
      const cy = await participant();
      const message = await queue(cy);
      await db.prisma.participant.delete({ where: { id: cy.id } });
      expect(await run()).toMatchObject({ failed: 1 });
      expect(await row(message.id)).toMatchObject({ status: "failed", lastError: `cannot render: participant ${cy.id} no longer exists` });
      expect(smtp.offered).toBe(0);
    });
  });
});

describe("leases", () => {
  test("a claim whose sender crashed is not taken while its lease lasts, and is sent once it has expired (at least once)", async () => {
    await withSmtp({}, async (smtp, run) => {
      const ann = await participant();
      const message = await queue(ann);
      // A deliverer claims it and dies before sending.
      const claimed = await claimDueEmails(db.prisma);
      expect(claimed.map((m) => m.id)).toEqual([message.id]);
      expect(await row(message.id)).toMatchObject({ status: "sending", attempts: 1 });

      expect(await run()).toMatchObject({ claimed: 0 });
      await db.prisma.emailMessage.update({ where: { id: message.id }, data: { leaseUntil: new Date(Date.now() - 1_000) } });
      expect(await run()).toMatchObject({ claimed: 1, sent: 1 });
      expect(await row(message.id)).toMatchObject({ status: "sent", attempts: 2 });
      expect(smtp.received).toHaveLength(1);
    });
  });
});

describe("the running deliverer", () => {
  test("sends at once when this process queues mail, not only on its poll; stops cleanly", async () => {
    await emptyOutbox();
    const smtp = await startTestSmtpServer();
    const deliverer = startMailDeliverer({ getPrisma: async () => db.prisma, transport: createSmtpTransport(smtp.url), from: FROM, intervalMs: 600_000 });
    try {
      await deliverer.idle();
      const ann = await participant();
      await queue(ann, { subject: "Woken" });
      mailQueued();
      const deadline = Date.now() + 10_000;
      while (smtp.received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(smtp.received.map((m) => m.parsed.subject)).toEqual(["Woken"]);
    } finally {
      await deliverer.stop();
      await smtp.close();
    }
  });
});

describe.runIf(testDatabaseKind() === "postgres")("several instances on one database (PostgreSQL only)", () => {
  test("two deliverers with their own clients, running at once, deliver each message exactly once", async () => {
    await emptyOutbox();
    const smtp = await startTestSmtpServer({ delayMs: 5 });
    const ann = await participant();
    const count = 60;
    for (let i = 0; i < count; i++) await queue(ann, { kind: "signed", subject: `m${i}`, body: `message ${i}` });
    const clients: PrismaClient[] = [createPrismaClient(db.url, 4), createPrismaClient(db.url, 4)];
    const transports = clients.map(() => createSmtpTransport(smtp.url));
    try {
      const drain = async (prisma: PrismaClient, index: number) => {
        let sent = 0;
        for (;;) {
          const run = await deliverDueEmails({ prisma, transport: transports[index]!, from: FROM, batchSize: 3 });
          sent += run.sent;
          if (run.claimed === 0) return sent;
        }
      };
      const sentBy = await Promise.all(clients.map(drain));
      const subjects = smtp.received.map((m) => m.parsed.subject);
      expect(subjects).toHaveLength(count);
      expect(new Set(subjects).size).toBe(count);
      expect(sentBy[0]! + sentBy[1]!).toBe(count);
      // Both took part.
      expect(sentBy[0]).toBeGreaterThan(0);
      expect(sentBy[1]).toBeGreaterThan(0);
      const rows = await db.prisma.emailMessage.findMany({ where: { contractId } });
      expect(rows.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
    } finally {
      for (const t of transports) t.close();
      await Promise.all(clients.map((c) => c.$disconnect()));
      await smtp.close();
    }
  });
});
