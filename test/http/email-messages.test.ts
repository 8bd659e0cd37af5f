// The Outbox: GET /v1/email_messages, administrators only; a `kept` message shows its signing link
// and code, derived when asked; every other message shows them masked. The messages are written
// straight into the outbox here (as publish/sign/decline will, through enqueueEmail).
import { beforeAll, describe, expect, test } from "vitest";
import { createUser } from "@/lib/db/seed/factories";
import { newNonce, signingToken, twoStepCode } from "@/lib/domain/signing";
import { ERROR_CODES } from "@/lib/domain/error-codes";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";
import { api, serverDb } from "@/test/helpers/http";
import { createHttpReadWorld } from "@/test/http/read-world";

const ORIGIN = "https://contracts.example.test";
const BODY = "Hello Ann,\n\nSign here: {{signing_link}}\nYour code: {{code}}\n";

let w: Awaited<ReturnType<typeof createHttpReadWorld>>;
let contractId: number;
let ann: { id: number; email: string; signingNonce: string; twoStepCodeNonce: string };
let admin: { email: string };
const ids: Record<"kept" | "sent" | "queued" | "failed" | "keptGone", number> = { kept: 0, sent: 0, queued: 0, failed: 0, keptGone: 0 };

beforeAll(async () => {
  w = await createHttpReadWorld({ contracts: 1 });
  contractId = w.contracts[0]!.id;
  const db = serverDb();
  admin = await createUser(db, { isAdmin: true });
  const participant = await db.participant.findFirstOrThrow({ where: { party: { contractId, myParty: false } }, orderBy: { id: "asc" } });
  ann = { id: participant.id, email: "ann@example.org", signingNonce: newNonce(), twoStepCodeNonce: newNonce() };
  await db.participant.update({ where: { id: ann.id }, data: { email: ann.email, signingNonce: ann.signingNonce, twoStepCodeNonce: ann.twoStepCodeNonce } });
  const message = (status: "kept" | "sent" | "queued" | "failed", extra: object = {}) =>
    db.emailMessage.create({
      data: { kind: "invitation", contractId, participantId: ann.id, toAddress: ann.email, subject: `Please sign (${status})`, body: BODY, linkOrigin: ORIGIN, status, ...extra },
    });
  ids.sent = (await message("sent", { attempts: 1, sentAt: new Date() })).id;
  ids.queued = (await message("queued", { attempts: 2, lastError: "EMESSAGE: Message failed: 451 Try again later", nextAttemptAt: new Date(Date.now() + 60_000) })).id;
  ids.failed = (await message("failed", { attempts: 1, lastError: "EMESSAGE: Message failed: 550 No such user here" })).id;
  ids.keptGone = (await message("kept", { participantId: 999_999_999 })).id;
  ids.kept = (await message("kept")).id;
});

const list = (query = "", email?: string) => api(`/v1/email_messages?contract_id=${contractId}${query}`, { email });

describe("GET /v1/email_messages", () => {
  test("lists a contract's messages newest first, with every field", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.json.count).toBe(5);
    expect(res.json.data.map((m: { id: number }) => m.id)).toEqual([ids.kept, ids.keptGone, ids.failed, ids.queued, ids.sent]);
    const queued = res.json.data.find((m: { id: number }) => m.id === ids.queued);
    expect(Object.keys(queued).sort()).toEqual(
      ["attachment_file_id", "attempts", "body", "contract_id", "created_time", "id", "kind", "last_error", "next_attempt_time", "participant_id", "sent_time", "status", "subject", "to"].sort(),
    );
    expect(queued).toMatchObject({ kind: "invitation", to: ann.email, subject: "Please sign (queued)", status: "queued", attempts: 2, contract_id: contractId, participant_id: ann.id, sent_time: null });
    expect(queued.last_error).toContain("451");
    expect(queued.next_attempt_time).toMatch(/\+00:00$/);
    const sent = res.json.data.find((m: { id: number }) => m.id === ids.sent);
    expect(sent.sent_time).toMatch(/\+00:00$/);
    expect(sent.next_attempt_time).toBeNull();
  });

  test("a kept message shows its signing link and code; every other status shows them masked", async () => {
    const secret = await loadSigningSecret(serverDb());
    const link = `${ORIGIN}/sign/${signingToken(secret, ann.id, ann.signingNonce)}`;
    const code = twoStepCode(secret, ann.id, ann.twoStepCodeNonce);
    const res = await list();
    const byId = new Map(res.json.data.map((m: { id: number; body: string }) => [m.id, m.body]));
    expect(byId.get(ids.kept)).toBe(`Hello Ann,\n\nSign here: ${link}\nYour code: ${code}\n`);
    const masked = "Hello Ann,\n\nSign here: [signing link]\nYour code: [code]\n";
    for (const id of [ids.sent, ids.queued, ids.failed]) expect(byId.get(id)).toBe(masked);
    // A kept message whose participant is gone cannot be filled in: masked too.
    expect(byId.get(ids.keptGone)).toBe(masked);
    expect(res.text).not.toContain("{{");
    expect(res.text.split("/sign/")).toHaveLength(2);
  });

  test("filters by status, and links keep the filters", async () => {
    const res = await list("&status=kept&limit=1");
    expect(res.status).toBe(200);
    expect(res.json.count).toBe(2);
    expect(res.json.data.map((m: { id: number }) => m.id)).toEqual([ids.kept]);
    const next = new URL(res.json._links.next.href);
    expect([next.pathname, next.searchParams.get("contract_id"), next.searchParams.get("status"), next.searchParams.get("offset")]).toEqual([
      "/v1/email_messages",
      String(contractId),
      "kept",
      "1",
    ]);
    expect((await list("&status=sending")).json.count).toBe(0);
    expect((await list("&status=bogus")).status).toBe(400);
  });

  test("an administrator named in x-service-user-email may read it", async () => {
    expect((await list("", admin.email)).status).toBe(200);
  });

  test.each(["editor", "viewer", "outsider"] as const)("the %s (not an administrator) is refused with 403 admin_only", async (who) => {
    const res = await list("", w.users[who].email);
    expect(res.status).toBe(403);
    expect(res.json.error_code).toBe(ERROR_CODES.admin_only.code);
    expect(res.text).not.toContain("/sign/");
  });
});
