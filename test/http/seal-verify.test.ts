// Issue 36 over HTTP: the last signature through the signing page gets the contract sealed by the
// server's own job (recording where the signature came from), POST /v1/verify tells the copy from
// a changed one and refuses what is no PDF, and the audit chain's endpoint holds until an event is edited.
import { beforeAll, describe, expect, test } from "vitest";

import { createContract, createWorkspaceWithTemplate } from "@/lib/db/seed/factories";
import { MAX_UPLOADED_PDF_BYTES } from "@/lib/domain/file-content";
import { VERIFY_MAX_BODY_BYTES } from "@/lib/http/front-door";
import { fileStore } from "@/lib/services/files/file-store";
import { api, baseUrl, serverDb } from "@/test/helpers/http";

let ws: { id: number };
let template: { id: number };
let editor: { id: number; name: string; email: string };

beforeAll(async () => {
  ({ workspace: ws, template, members: { editor } } = await serverDb().$transaction((tx) =>
    createWorkspaceWithTemplate(tx, { workspace: { name: `Seal ${Date.now()}` }, template: { twoStepMethods: ["none"] }, members: ["editor"] }),
  ));
});

/** POST /v1/verify with raw bytes, as the /verify page sends them. */
async function verify(bytes: Uint8Array, contentType = "application/pdf") {
  const res = await fetch(`${baseUrl()}/v1/verify`, { method: "POST", headers: { "content-type": contentType, accept: "application/json" }, body: bytes as Uint8Array<ArrayBuffer> });
  return { status: res.status, json: (await res.json()) as { verdict?: string; message?: string; contract?: { id: number } | null; error_code?: number } };
}

async function until<T>(read: () => Promise<T | null>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("sign, seal, verify", () => {
  let contractId: number;
  let pdf: Buffer;

  beforeAll(async () => {
    const contract = await serverDb().$transaction((tx) =>
      createContract(tx, { workspaceId: ws.id, templateId: template.id, name: "Sealed over HTTP", owner: editor, counterparties: [{ type: "individual", participant: { name: "Hanna Häkkinen", twoStepMethod: "none" } }] }),
    );
    contractId = contract.id;
    expect((await api(`/v1/contracts/${contractId}/publish`, { method: "POST", body: {}, email: editor.email })).status).toBe(200);
    const signer = await serverDb().participant.findFirstOrThrow({ where: { party: { contractId, myParty: false } } });
    const link = await api(`/v1/contracts/${contractId}/parties/${signer.partyId}/participants/${signer.id}/signing_link`, { email: editor.email });
    const token = (link.json.url as string).split("/sign/")[1]!;
    const signed = await api(`/api/sign/${token}/sign`, { token: null, method: "POST", body: { full_name: "Hanna Häkkinen" }, headers: { origin: baseUrl(), "user-agent": "SealTest/1.0 (HTTP)" } });
    expect(signed.status).toBe(200);
    const seal = await until(async () => {
      const row = await serverDb().contractSeal.findUnique({ where: { contractId } });
      return row?.status === "done" ? row : null;
    });
    const file = await serverDb().contractFile.findUniqueOrThrow({ where: { id: seal.fileId! } });
    pdf = Buffer.from(await fileStore().read(serverDb(), file.storageKey!));
  });

  test("the signature recorded where it came from", async () => {
    const signer = await serverDb().participant.findFirstOrThrow({ where: { party: { contractId, myParty: false } } });
    expect(signer.decidedUserAgent).toBe("SealTest/1.0 (HTTP)");
    expect(signer.decidedIp).toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  test("the copy verifies as intact; one byte changed makes it changed", async () => {
    const intact = await verify(pdf);
    expect(intact.status).toBe(200);
    expect(intact.json).toMatchObject({ verdict: "intact", contract: { id: contractId, name: "Sealed over HTTP" } });
    const changed = Buffer.from(pdf);
    const at = Math.floor(changed.length / 3);
    changed[at] = changed[at]! ^ 0x01;
    expect((await verify(changed)).json.verdict).toBe("changed");
  });

  test("garbage is refused with a clear 4xx, an unsigned PDF is unknown, and no credentials are needed", async () => {
    const garbage = await verify(new TextEncoder().encode("GIF89a not a pdf"), "application/octet-stream");
    expect(garbage.status).toBe(415);
    expect((await verify(new Uint8Array(0))).status).toBe(400);
    expect((await verify(new TextEncoder().encode("%PDF-1.4\n%%EOF\n"))).json.verdict).toBe("unknown");
  });

  test("an upload over the bound is refused with 413 before it is read; a copy as large as a sealed upload of 25 MiB is read", async () => {
    const res = await fetch(`${baseUrl()}/v1/verify`, { method: "POST", headers: { "content-type": "application/pdf" }, body: new Uint8Array(VERIFY_MAX_BODY_BYTES + 1) });
    expect(res.status).toBe(413);
    const large = new Uint8Array(MAX_UPLOADED_PDF_BYTES + 1024 * 1024).fill(0x20);
    large.set(new TextEncoder().encode("%PDF-1.7\n"));
    const read = await verify(large);
    expect([read.status, read.json.verdict]).toEqual([200, "unknown"]);
  });

  test("the audit chain holds until a past event is edited", async () => {
    const ok = await api(`/v1/contracts/${contractId}/events/verify`, { email: editor.email });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ intact: true, broken_at: null });
    expect(ok.json.events).toBeGreaterThanOrEqual(4);
    const first = await serverDb().auditEvent.findFirstOrThrow({ where: { contractId, chainSeq: 2 } });
    await serverDb().$executeRaw`UPDATE audit_events SET actor_name = 'Someone else' WHERE id = ${first.id}`;
    const broken = await api(`/v1/contracts/${contractId}/events/verify`, { email: editor.email });
    expect(broken.json).toMatchObject({ intact: false, broken_at: { position: 2, event_id: first.id } });
  });

  test("once an admin deleted the contract, the copy is still intact, with no contract; a changed copy is still changed", async () => {
    expect((await api(`/v1/contracts/${contractId}`, { method: "DELETE" })).status).toBe(204);
    const after = await verify(pdf);
    expect(after.status).toBe(200);
    expect(after.json).toMatchObject({ verdict: "intact", contract: null });
    expect(after.json.message).toMatch(new RegExp(`^Sealed by this service on \\d{1,2} [A-Z][a-z]+ \\d{4} at \\d\\d:\\d\\d UTC and unchanged; its contract \\(${contractId}\\) has since been deleted here\\.$`));
    const changed = Buffer.from(pdf);
    const at = Math.floor(changed.length / 3);
    changed[at] = changed[at]! ^ 0x01;
    expect((await verify(changed)).json).toMatchObject({ verdict: "changed", contract: null });
  });
});
