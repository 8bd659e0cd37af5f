// Issue 36 over HTTP: a template's body (GET/PUT), the contract's document, its files (list,
// download headers, the PDF through pdftotext), attachment uploads good and bad, and another
// workspace's file.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { createContract, createTemplate } from "@/lib/db/seed/factories";
import { ERROR_CODES } from "@/lib/domain/error-codes";
import { ZContractDocumentSchema, ZContractFileListSchema, ZContractFileSchema, ZPublishReadinessSchema, ZTemplateDetailSchema } from "@/lib/schemas";
import { UPLOAD_MAX_BODY_BYTES } from "@/lib/http/front-door";
import { TEST_API_TOKEN } from "@/test/helpers/server";
import { api, baseUrl, seededWorkspaces, serverDb } from "@/test/helpers/http";

const EDITOR = "editor@example.com"; // editor in Sales, viewer in Legal Norway
let ws: { sales: number; procurement: number };
let templateId: number;

beforeAll(async () => {
  const db = serverDb();
  ws = await seededWorkspaces();
  const template = await createTemplate(db, {
    name: "Files test",
    workspaceIds: [ws.sales, ws.procurement],
    body: { sections: [{ heading: "Order", text: "Order {{field.po}} for {{field.amount}} from {{parties}}." }, { heading: "Signatures", text: "{{signatories}}" }] },
    dataFields: [{ name: "PO number", customId: "po", defaultValue: "PO-Ærø-9" }, { name: "Amount", customId: "amount", defaultValue: "1 000 SEK" }],
  });
  templateId = template.id;
});

async function draft(workspaceId = ws.sales, state: "draft" | "pending" = "draft") {
  const db = serverDb();
  const owner = await db.user.findUniqueOrThrow({ where: { email: EDITOR } });
  const row = await db.$transaction(
    (tx) => createContract(tx, { workspaceId, templateId, state, owner, counterparties: [{ type: "individual", participant: { name: "Øyvind Åberg", email: "o@example.org", signatory: true } }] }),
    { timeout: 60_000 },
  );
  return row.id;
}

/** A multipart upload as a client sends it (fetch builds the boundary). */
async function upload(contractId: number, bytes: Uint8Array, { name = "file.bin", email = EDITOR, uploadAs = "attachment" } = {}) {
  const form = new FormData();
  form.set("upload_as", uploadAs);
  form.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  const res = await fetch(`${baseUrl()}/v1/contracts/${contractId}/files`, {
    method: "POST",
    headers: { "x-service-api-token": TEST_API_TOKEN, "x-service-user-email": email },
    body: form,
  });
  return { status: res.status, json: (await res.json().catch(() => undefined)) as any };
}

const pngBytes = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), Buffer.alloc(64)]);
const code = (key: keyof typeof ERROR_CODES) => ERROR_CODES[key].code;

describe("a template's body", () => {
  it("GET answers body and data fields; PUT refuses a placeholder naming no data field (400, the section named) and a body over 200 KB", async () => {
    const got = await api(`/v1/templates/${templateId}`);
    expect(got.status).toBe(200);
    const template = ZTemplateDetailSchema.parse(got.json);
    expect(template.data_fields.map((f) => f.custom_id)).toEqual(["po", "amount"]);
    expect(template.body.sections[0]!.text).toContain("{{field.po}}");

    const bad = await api(`/v1/templates/${templateId}`, { method: "PUT", body: { body: { sections: [{ heading: "X", text: "{{field.po}} {{field.nope}}" }] } } });
    expect(bad.status).toBe(400);
    expect(bad.json.parameter_problems["body.sections.0.text"][0]).toContain("{{field.nope}}");
    const huge = await api(`/v1/templates/${templateId}`, { method: "PUT", body: { body: { sections: [{ heading: "X", text: "x".repeat(210 * 1024) }] } } });
    expect(huge.status).toBe(400);
    expect(Object.keys(huge.json.parameter_problems)).toEqual(["body"]);

    // An attribute the body does not have is refused, never dropped; a wrong type is said in the API's words.
    const unknown = await api(`/v1/templates/${templateId}`, { method: "PUT", body: { body: { sections: [{ heading: "X", text: "x", bold: true }], title: "T" } } });
    expect([unknown.status, unknown.json.parameter_problems]).toEqual([400, { "body.title": ["is not a known attribute"], "body.sections.0.bold": ["is not a known attribute"] }]);
    const typed = await api(`/v1/templates/${templateId}`, { method: "PUT", body: { body: { sections: [{ heading: 1, text: null }] } } });
    expect([typed.status, typed.json.parameter_problems]).toEqual([400, { "body.sections.0.heading": ["must be a string"], "body.sections.0.text": ["must not be null"] }]);
    expect((await api(`/v1/templates/${templateId}`, { method: "PUT", body: { body: null } })).json.parameter_problems).toEqual({ body: ["must not be null"] });
    expect((await api(`/v1/templates/${templateId}`)).json.body).toEqual(template.body);

    const ok = await api(`/v1/templates/${templateId}`, { method: "PUT", body: { body: template.body } });
    expect(ok.status).toBe(200);
    expect(ZTemplateDetailSchema.parse(ok.json).body).toEqual(template.body);
  });
});

describe("a contract's document and files", () => {
  it("the document fills in the data fields; the files list the contract PDF; its download is a draft PDF with the values and names", async () => {
    const id = await draft();
    const doc = ZContractDocumentSchema.parse((await api(`/v1/contracts/${id}/document`, { email: EDITOR })).json);
    expect(doc.missing_data_fields).toEqual([]);
    expect(JSON.stringify(doc.sections)).toContain("PO-Ærø-9");

    const list = await api(`/v1/contracts/${id}/files`, { email: EDITOR });
    expect(list.status).toBe(200);
    const files = ZContractFileListSchema.parse(list.json);
    expect(files.data.map((f) => f.type)).toEqual(["contract"]);
    const pdf = files.data[0]!;

    const meta = await api(`/v1/contracts/${id}/files/${pdf.id}`, { email: EDITOR });
    expect(ZContractFileSchema.parse(meta.json)).toEqual(pdf);

    const res = await fetch(`${baseUrl()}/v1/contracts/${id}/files/${pdf.id}?download=true`, { headers: { "x-service-api-token": TEST_API_TOKEN, "x-service-user-email": EDITOR } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="Files test\.pdf"; filename\*=UTF-8''Files%20test\.pdf$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(bytes.length);
    const file = path.join(mkdtempSync(path.join(tmpdir(), "files-http-")), "c.pdf");
    writeFileSync(file, bytes);
    execFileSync("qpdf", ["--check", file], { stdio: "pipe" });
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
    for (const value of ["PO-Ærø-9", "1 000 SEK", "Øyvind Åberg", "Draft — not final"]) expect(text).toContain(value);
  });

  it("a data field the text needs without a value: the readiness answer names it in its sentence (custom id too) and gives the field, as the document lists it", async () => {
    const id = await draft();
    expect((await api(`/v1/contracts/${id}/data_fields/c::po`, { method: "PUT", email: EDITOR, body: { value: "" } })).status).toBe(200);
    const readiness = await api(`/v1/contracts/${id}/publish_readiness`, { email: EDITOR });
    expect(readiness.status).toBe(200);
    const { ready, problems } = ZPublishReadinessSchema.parse(readiness.json);
    expect(ready).toBe(false);
    // The sentence is as before (clients may show it); the field comes with it, for the contract page.
    expect(problems).toEqual([
      { path: "data_fields.po", message: "The text needs a value for the data field PO number (po).", party_id: null, participant_id: null, missing_data_field: { custom_id: "po", name: "PO number" } },
    ]);
    const doc = ZContractDocumentSchema.parse((await api(`/v1/contracts/${id}/document`, { email: EDITOR })).json);
    expect(doc.missing_data_fields).toEqual([problems[0]!.missing_data_field]);
  });

  it("the text's ETag: a PUT with a stale or weak If-Match is 412 with the current ETag and changes nothing; the current one saves and answers the new ETag; none, the last save wins", async () => {
    const id = await draft();
    const documentPath = `/v1/contracts/${id}/document`;
    const put = (body: unknown, ifMatch?: string) => api(documentPath, { method: "PUT", email: EDITOR, body: { body }, headers: ifMatch ? { "if-match": ifMatch } : {} });
    const loaded = (await api(documentPath, { email: EDITOR })).headers.get("etag")!;
    expect(loaded).toMatch(new RegExp(`^"d${id}-[0-9a-f]{64}"$`));

    const mine = { sections: [{ heading: "Mine", text: "Order {{field.po}}." }] };
    const saved = await put(mine, loaded);
    expect(saved.status).toBe(200);
    expect(ZContractDocumentSchema.parse(saved.json).body).toEqual(mine);
    const current = saved.headers.get("etag")!;
    expect(current).not.toBe(loaded);
    expect((await api(documentPath, { email: EDITOR })).headers.get("etag")).toBe(current);

    const theirs = { sections: [{ heading: "Theirs", text: "Overwritten." }] };
    for (const stale of [loaded, `W/${current}`, "garbage"]) {
      const refused = await put(theirs, stale);
      expect(refused.status).toBe(412);
      expect(refused.json).toMatchObject({ error_code: code("stale_if_match") });
      expect(refused.headers.get("etag")).toBe(current);
    }
    const after = await api(documentPath, { email: EDITOR });
    expect(ZContractDocumentSchema.parse(after.json).body).toEqual(mine);
    expect(after.headers.get("etag")).toBe(current);

    // A client that sends no If-Match (as Oneflow's) replaces whatever is there.
    const blind = await put(theirs);
    expect(blind.status).toBe(200);
    expect(ZContractDocumentSchema.parse(blind.json).body).toEqual(theirs);
    expect(blind.headers.get("etag")).not.toBe(current);
  });

  it("uploads a PDF and a PNG (by content), downloads them with their type, and removes one", async () => {
    const id = await draft();
    const doc = await PDFDocument.create();
    doc.addPage();
    const pdfBytes = await doc.save();
    const a = await upload(id, pdfBytes, { name: "Villkor åäö.pdf" });
    expect(a.status).toBe(200);
    expect(ZContractFileSchema.parse(a.json)).toMatchObject({ type: "attachment", name: "Villkor åäö.pdf", content_type: "application/pdf", size: pdfBytes.length });
    const b = await upload(id, pngBytes(), { name: "logo.jpeg" });
    expect(b.json).toMatchObject({ name: "logo.png", content_type: "image/png", extension: "png" });

    const res = await fetch(`${baseUrl()}/v1/contracts/${id}/files/${a.json.id}?download=true`, { headers: { "x-service-api-token": TEST_API_TOKEN, "x-service-user-email": EDITOR } });
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toContain("filename*=UTF-8''Villkor%20%C3%A5%C3%A4%C3%B6.pdf");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from(pdfBytes));

    expect((await api(`/v1/contracts/${id}/files`, { email: EDITOR })).json.data.map((f: { type: string }) => f.type)).toEqual(["contract", "attachment", "attachment"]);
    expect((await api(`/v1/contracts/${id}/files/${b.json.id}`, { method: "DELETE", email: EDITOR })).status).toBe(204);
    expect((await api(`/v1/contracts/${id}/files`, { email: EDITOR })).json.count).toBe(2);
  });

  it("refuses: another type 415, not multipart 415, a broken PDF 400, a PDF bomb 400, over 10 MB 413, a published contract 409, another workspace's file 404", async () => {
    const id = await draft();
    expect((await upload(id, Buffer.from("GIF89a..."), { name: "a.pdf" })).json).toMatchObject({ error_code: code("file_type_not_accepted") });
    const notMultipart = await api(`/v1/contracts/${id}/files`, { method: "POST", body: { upload_as: "attachment" }, email: EDITOR });
    expect(notMultipart.status).toBe(415);
    expect((await upload(id, Buffer.from("%PDF-1.4\ngarbage"))).json).toMatchObject({ error_code: code("file_unreadable") });
    expect((await upload(id, pngBytes(), { uploadAs: "contract" })).status).toBe(400);

    // A page tree that refers to itself: loops forever unless bounded.
    const loop = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [2 0 R] /Count 1000000 >>\nendobj\ntrailer\n<< /Root 1 0 R /Size 3 >>\n%%EOF\n");
    const looped = await upload(id, loop);
    expect(looped.status).toBe(400);

    const big = Buffer.alloc(10_000_001, 0x41);
    big.set(pngBytes());
    const huge = await upload(id, big);
    expect(huge.status).toBe(413);
    // Well past the route's bound: the front door refuses it before the app reads it.
    const res = await fetch(`${baseUrl()}/v1/contracts/${id}/files`, {
      method: "POST",
      headers: { "x-service-api-token": TEST_API_TOKEN, "content-type": "multipart/form-data; boundary=x", "content-length": String(UPLOAD_MAX_BODY_BYTES + 1_000_000) },
      body: Buffer.alloc(UPLOAD_MAX_BODY_BYTES + 1_000_000),
    }).catch(() => null);
    if (res) expect(res.status).toBe(413);
    expect((await api(`/v1/contracts/${id}/files`, { email: EDITOR })).json.count).toBe(1);

    const pending = await draft(ws.sales, "pending");
    expect((await upload(pending, pngBytes())).json).toMatchObject({ error_code: code("contract_text_frozen") });

    // Procurement is not the editor's: its contract and files are not found.
    const theirs = await draft(ws.procurement);
    const theirFile = await upload(theirs, pngBytes(), { email: "buyer@example.com" });
    expect(theirFile.status).toBe(200);
    expect((await api(`/v1/contracts/${theirs}/files/${theirFile.json.id}?download=true`, { email: EDITOR })).status).toBe(404);
    expect((await api(`/v1/contracts/${id}/files/${theirFile.json.id}?download=true`, { email: EDITOR })).status).toBe(404);
    expect((await api(`/v1/contracts/${theirs}/files`, { email: EDITOR })).status).toBe(404);
  });
});
