// Issue 46 over HTTP: a PDF of the customer's own as a draft's document (upload_as=expanded_pdf),
// boxes placed on its pages, publishing refused while a signatory has no signature box, the signing
// page's view of the PDF, and the OpenAPI document describing it all.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { createContract, createWorkspaceWithTemplate } from "@/lib/db/seed/factories";
import { ERROR_CODES } from "@/lib/domain/error-codes";
import { MAX_UPLOADED_PDF_BYTES } from "@/lib/domain/file-content";
import { UPLOAD_MAX_BODY_BYTES } from "@/lib/http/front-door";
import { ZContractDocumentSchema, ZContractFileSchema } from "@/lib/schemas";
import { ZPlacementListSchema, ZPlacementSchema } from "@/lib/schemas/placement";
import { TEST_API_TOKEN } from "@/test/helpers/server";
import { api, baseUrl, serverDb } from "@/test/helpers/http";
import { pageTexts } from "@/test/helpers/sealed-pdf";

let ws: { id: number };
let template: { id: number };
let editor: { id: number; name: string; email: string };
let viewer: { id: number; email: string };

beforeAll(async () => {
  await serverDb().$transaction(async (tx) => {
    ({ workspace: ws, template, members: { editor, viewer } } = await createWorkspaceWithTemplate(tx, {
      workspace: { name: `Uploaded PDF ${Date.now()}` },
      template: { dataFields: [{ name: "Price", customId: "price", defaultValue: "100 EUR" }, { name: "Notes", customId: "notes", defaultValue: "" }] },
      members: ["editor", "viewer"],
    }));
  });
});

/** A draft with one company counterparty: a signatory and a reader. */
async function draft() {
  const row = await serverDb().$transaction(
    (tx) =>
      createContract(tx, {
        workspaceId: ws.id,
        templateId: template.id,
        name: "Own paper",
        owner: editor,
        counterparties: [
          {
            type: "company",
            name: "Acme",
            participants: [
              { name: "Åsa Öberg", email: "asa@example.org", signatory: true },
              { name: "Rita Reader", email: "rita@example.org", signatory: false },
            ],
          },
        ],
      }),
    { timeout: 60_000 },
  );
  const people = await serverDb().participant.findMany({ where: { party: { contractId: row.id } }, orderBy: { id: "asc" }, include: { party: true } });
  const fields = await serverDb().contractDataField.findMany({ where: { contractId: row.id }, orderBy: { id: "asc" } });
  return {
    id: row.id,
    asa: people.find((p) => p.name === "Åsa Öberg")!,
    rita: people.find((p) => p.name === "Rita Reader")!,
    price: fields.find((f) => f.customId === "price")!,
    notes: fields.find((f) => f.customId === "notes")!,
  };
}

/** A PDF of `pages` A4 pages, each saying which page it is. */
async function pdfOf(pages: number, label = "Uploaded original"): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) doc.addPage([595.28, 841.89]).drawText(`${label}, page ${n}`, { x: 72, y: 760, size: 14, font });
  return doc.save();
}

async function upload(contractId: number, bytes: Uint8Array, { email = editor.email, uploadAs = "expanded_pdf", name = "Own paper.pdf" } = {}) {
  const form = new FormData();
  form.set("upload_as", uploadAs);
  form.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  const res = await fetch(`${baseUrl()}/v1/contracts/${contractId}/files`, { method: "POST", headers: { "x-service-api-token": TEST_API_TOKEN, "x-service-user-email": email }, body: form });
  return { status: res.status, json: (await res.json().catch(() => undefined)) as any };
}

const place = (contractId: number, body: unknown, email = editor.email) => api(`/v1/contracts/${contractId}/placements`, { method: "POST", email, body });
const code = (key: keyof typeof ERROR_CODES) => ERROR_CODES[key].code;
const signatureBox = (participantId: number, page = 2) => ({ kind: "signature", participant_id: participantId, page, x: 0.1, y: 0.7, width: 0.3, height: 0.06 });

describe("upload_as=expanded_pdf", () => {
  it("makes the PDF the draft's document, as the seal reads it (its text unchanged), with its SHA-256 and page count; a second upload replaces it and drops boxes on pages it lacks", async () => {
    const c = await draft();
    const bytes = await pdfOf(3);
    const first = await upload(c.id, bytes);
    expect(first.status).toBe(200);
    const file = ZContractFileSchema.parse(first.json);
    expect(file).toMatchObject({ type: "contract", name: "Own paper.pdf", pages: 3 });

    const doc = ZContractDocumentSchema.parse((await api(`/v1/contracts/${c.id}/document`, { email: editor.email })).json);
    expect(doc.uploaded_pdf).toMatchObject({ file_id: file.id, pages: 3, sha256: file.sha256 });
    const res = await fetch(doc.uploaded_pdf!.href, { headers: { "x-service-api-token": TEST_API_TOKEN, "x-service-user-email": editor.email } });
    const kept = Buffer.from(await res.arrayBuffer());
    expect([kept.length, createHash("sha256").update(kept).digest("hex")]).toEqual([file.size, file.sha256]);
    expect(pageTexts(kept)).toEqual(pageTexts(bytes));

    expect((await place(c.id, signatureBox(c.asa.id, 3))).status).toBe(200);
    expect((await place(c.id, { ...signatureBox(c.asa.id, 1), kind: "name" })).status).toBe(200);
    const smaller = await pdfOf(2, "Second version");
    const second = await upload(c.id, smaller);
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ id: file.id, pages: 2 });
    const boxes = ZPlacementListSchema.parse((await api(`/v1/contracts/${c.id}/placements`, { email: editor.email })).json);
    expect(boxes.data.map((b) => [b.kind, b.participant_id, b.page])).toEqual([["name", c.asa.id, 1]]);
    const events = await serverDb().auditEvent.findMany({ where: { contractId: c.id, action: "contract.document_upload" }, orderBy: { id: "asc" } });
    expect(events.map((e) => (e.after as { boxes_removed: number }).boxes_removed)).toEqual([0, 1]);

    // Removed, the template's text is the document again, and the boxes go with the PDF.
    expect((await api(`/v1/contracts/${c.id}/files/${file.id}`, { method: "DELETE", email: editor.email })).status).toBe(204);
    expect(ZContractDocumentSchema.parse((await api(`/v1/contracts/${c.id}/document`, { email: editor.email })).json).uploaded_pdf).toBeNull();
    expect((await api(`/v1/contracts/${c.id}/placements`, { email: editor.email })).json.count).toBe(0);
    const files = await api(`/v1/contracts/${c.id}/files`, { email: editor.email });
    expect(files.json.data.map((f: { type: string; size: number | null }) => [f.type, f.size])).toEqual([["contract", null]]);
  });

  it("refuses, changing nothing: a file that is not a PDF (415), an encrypted PDF and one with JavaScript (400, one sentence), one over 25 MB (413), a viewer (403), a published contract (409)", async () => {
    const c = await draft();
    expect(UPLOAD_MAX_BODY_BYTES).toBeGreaterThan(MAX_UPLOADED_PDF_BYTES);
    expect((await upload(c.id, new TextEncoder().encode("just text, not a PDF"))).json.error_code).toBe(code("file_type_not_accepted"));

    const dir = mkdtempSync(path.join(tmpdir(), "uploaded-pdf-"));
    writeFileSync(path.join(dir, "plain.pdf"), await pdfOf(1));
    execFileSync("qpdf", ["--encrypt", "user", "owner", "256", "--", path.join(dir, "plain.pdf"), path.join(dir, "locked.pdf")]);
    const locked = await upload(c.id, readFileSync(path.join(dir, "locked.pdf")));
    expect(locked.status).toBe(400);
    expect(locked.json.error_code).toBe(code("file_unreadable"));
    expect(locked.json.message ?? locked.json.detail).toMatch(/password|encrypted/i);

    const scripted = await PDFDocument.create();
    scripted.addPage();
    scripted.catalog.set(scripted.context.obj("OpenAction") as never, scripted.context.obj({ Type: "Action", S: "JavaScript", JS: "app.alert(1)" }));
    const js = await upload(c.id, await scripted.save());
    expect(js.status).toBe(400);
    expect(js.json.message ?? js.json.detail).toMatch(/JavaScript/);

    const huge = new Uint8Array(MAX_UPLOADED_PDF_BYTES + 1);
    huge.set(new TextEncoder().encode("%PDF-1.7\n"));
    expect((await upload(c.id, huge)).status).toBe(413);
    expect((await upload(c.id, await pdfOf(1), { email: viewer.email })).status).toBe(403);

    const after = await api(`/v1/contracts/${c.id}/files`, { email: editor.email });
    expect(after.json.data.map((f: { type: string; size: number | null }) => [f.type, f.size])).toEqual([["contract", null]]);
    expect(await serverDb().auditEvent.count({ where: { contractId: c.id, action: "contract.document_upload" } })).toBe(0);
  });
});

describe("boxes on the pages", () => {
  it("are placed, moved and removed; each bad box is a 400 naming its problem; a text contract has none to place (409)", async () => {
    const c = await draft();
    const none = await place(c.id, signatureBox(c.asa.id));
    expect([none.status, none.json.error_code]).toEqual([409, code("contract_has_no_pdf")]);
    expect((await upload(c.id, await pdfOf(3))).status).toBe(200);

    const created = await place(c.id, signatureBox(c.asa.id));
    expect(created.status).toBe(200);
    const box = ZPlacementSchema.parse(created.json);
    expect(box).toMatchObject({ kind: "signature", participant_id: c.asa.id, data_field_id: null, page: 2, x: 0.1, width: 0.3 });

    const problems = async (body: unknown) => {
      const res = await place(c.id, body);
      expect(res.status, JSON.stringify(res.json)).toBe(400);
      return res.json.parameter_problems as Record<string, string[]>;
    };
    expect((await problems({ ...signatureBox(c.asa.id), page: 5 })).page![0]).toBe("is 5, but the PDF has 3 pages");
    expect((await problems({ ...signatureBox(c.asa.id), x: 0.8 })).width![0]).toMatch(/runs off the page's right edge/);
    expect((await problems({ ...signatureBox(c.asa.id), y: 0.97 })).height![0]).toMatch(/bottom edge/);
    expect((await problems({ ...signatureBox(c.asa.id), x: -0.1 })).x![0]).toMatch(/0 or more/);
    expect((await problems(signatureBox(c.rita.id))).participant_id![0]).toMatch(/does not sign/);
    expect((await problems(signatureBox(999_999))).participant_id![0]).toMatch(/names no participant/);
    expect((await problems({ kind: "data_field", page: 1, x: 0, y: 0, width: 0.2, height: 0.05 })).data_field_id![0]).toMatch(/is required/);
    expect(Object.keys(await problems({ ...signatureBox(c.asa.id), data_field_id: c.price.id, page: 9 })).sort()).toEqual(["data_field_id", "page"]);
    expect((await place(c.id, signatureBox(c.asa.id), viewer.email)).status).toBe(403);

    const field = await place(c.id, { kind: "data_field", data_field_id: c.price.id, page: 1, x: 0.5, y: 0.1, width: 0.2, height: 0.04 });
    expect(field.status).toBe(200);
    const moved = await api(`/v1/contracts/${c.id}/placements/${box.id}`, { method: "PUT", email: editor.email, body: { page: 3, x: 0.6 } });
    expect(moved.status).toBe(200);
    expect(moved.json).toMatchObject({ page: 3, x: 0.6, y: 0.7, participant_id: c.asa.id });
    const offPage = await api(`/v1/contracts/${c.id}/placements/${box.id}`, { method: "PUT", email: editor.email, body: { width: 0.5 } });
    expect(offPage.status).toBe(400);
    expect((await api(`/v1/contracts/${c.id}/placements/${field.json.id}`, { method: "DELETE", email: editor.email })).status).toBe(204);
    expect((await api(`/v1/contracts/${c.id}/placements/${field.json.id}`, { method: "DELETE", email: editor.email })).status).toBe(404);

    // Another contract's box, asked for under a contract of the caller's (here one with no PDF): 404, as a file of another contract is.
    const other = await draft();
    for (const method of ["PUT", "DELETE"] as const) {
      const res = await api(`/v1/contracts/${other.id}/placements/${box.id}`, { method, email: editor.email, ...(method === "PUT" ? { body: { x: 0.2 } } : {}) });
      expect([method, res.status, res.json?.error_code]).toEqual([method, 404, code("resource_not_found")]);
    }

    const list = ZPlacementListSchema.parse((await api(`/v1/contracts/${c.id}/placements`, { email: viewer.email })).json);
    expect(list.data.map((b) => [b.id, b.page, b.x])).toEqual([[box.id, 3, 0.6]]);
    const actions = await serverDb().auditEvent.findMany({ where: { contractId: c.id, entityType: "placement" }, orderBy: { id: "asc" }, select: { action: true } });
    expect(actions.map((a) => a.action)).toEqual(["placement.create", "placement.create", "placement.update", "placement.delete"]);
  });

  it("publishing is refused (409, naming who) while a signatory has no signature box; then publishing freezes the PDF and its boxes; the signer's page shows the PDF with their box", async () => {
    const c = await draft();
    expect((await upload(c.id, await pdfOf(2))).status).toBe(200);
    // A name box is not a signature box.
    expect((await place(c.id, { ...signatureBox(c.asa.id, 1), kind: "name" })).status).toBe(200);
    const refused = await api(`/v1/contracts/${c.id}/publish`, { method: "POST", email: editor.email, body: {} });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.json)).toContain("Åsa Öberg (Acme) signs but has no signature box on the PDF.");
    const readiness = await api(`/v1/contracts/${c.id}/publish_readiness`, { email: editor.email });
    expect(JSON.stringify(readiness.json)).toContain("Åsa Öberg (Acme) signs but has no signature box on the PDF.");

    expect((await place(c.id, signatureBox(c.asa.id, 2))).status).toBe(200);
    expect((await place(c.id, { kind: "data_field", data_field_id: c.notes.id, page: 1, x: 0.1, y: 0.1, width: 0.3, height: 0.05 })).status).toBe(200);
    const empty = await api(`/v1/contracts/${c.id}/publish`, { method: "POST", email: editor.email, body: {} });
    expect(JSON.stringify(empty.json)).toContain("The data field Notes shown on page 1 has no value.");
    expect((await api(`/v1/contracts/${c.id}/data_fields/${c.notes.id}`, { method: "PUT", email: editor.email, body: { value: "Net 30" } })).status).toBe(200);
    const published = await api(`/v1/contracts/${c.id}/publish`, { method: "POST", email: editor.email, body: {} });
    expect(published.status, JSON.stringify(published.json)).toBe(200);

    expect((await place(c.id, signatureBox(c.asa.id, 1))).json.error_code).toBe(code("contract_text_frozen"));
    expect((await upload(c.id, await pdfOf(1))).json.error_code).toBe(code("contract_text_frozen"));

    const link = await api(`/v1/contracts/${c.id}/parties/${c.asa.partyId}/participants/${c.asa.id}/signing_link`, { email: editor.email });
    const token = (link.json.url as string).split("/sign/")[1]!;
    const view = await api(`/api/sign/${token}`, { token: null, headers: { origin: baseUrl() } });
    expect(view.status).toBe(200);
    expect(view.json.uploaded_pdf).toMatchObject({ pages: 2 });
    expect(view.json.uploaded_pdf.boxes.filter((b: { kind: string }) => b.kind === "signature")).toEqual([{ kind: "signature", page: 2, x: 0.1, y: 0.7, width: 0.3, height: 0.06, mine: true }]);
    expect(view.json.uploaded_pdf.boxes.find((b: { kind: string }) => b.kind === "data_field")).toMatchObject({ page: 1, mine: false });
    const pdf = await fetch(`${baseUrl()}${view.json.uploaded_pdf.href}`);
    expect(pdf.status).toBe(200);
    expect((await pdf.arrayBuffer()).byteLength).toBe(Number((await api(`/v1/contracts/${c.id}/document`, { email: editor.email })).json.uploaded_pdf.size));
  });
});

describe("the OpenAPI document", () => {
  it("describes the placements and the expanded_pdf upload", async () => {
    const doc = (await api("/v1/openapi.json", { token: null })).json;
    expect(Object.keys(doc.paths["/v1/contracts/{contract_id}/placements"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/v1/contracts/{contract_id}/placements/{placement_id}"]).sort()).toEqual(["delete", "put"]);
    expect(doc.components.schemas.Placement.properties.page).toBeDefined();
    expect(JSON.stringify(doc.components.schemas.UploadContractFileRequest)).toContain("expanded_pdf");
  });
});
