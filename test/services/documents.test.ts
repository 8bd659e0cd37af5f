// The contract as a document (docs/documents.md): template bodies, the text copied to contracts,
// readiness, the frozen text, attachments and the file store.
import { deflateSync } from "node:zlib";
import { PDFDocument, PDFName, PDFString } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createContract as createContractRow, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import { EMPLOYMENT_BODY, NDA_BODY, PURCHASE_ORDER_BODY, SERVICE_AGREEMENT_BODY } from "@/lib/db/seed/template-bodies";
import { bodyProblems, MAX_BODY_BYTES, renderDocument, type TBody } from "@/lib/domain/contract-document";
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from "@/lib/domain/file-content";
import { ZCreateContractRequestSchema } from "@/lib/schemas";
import { createContract } from "@/lib/services/contracts/create-contract";
import { getContractDocument } from "@/lib/services/contracts/get-contract-document";
import { getPublishReadiness } from "@/lib/services/contracts/get-publish-readiness";
import { bodyDigest } from "@/lib/services/contracts/body-digest";
import { updateContractBody } from "@/lib/services/contracts/update-contract-body";
import { deleteAttachment } from "@/lib/services/files/delete-attachment";
import { fileStore } from "@/lib/services/files/file-store";
import { openContractFile } from "@/lib/services/files/open-contract-file";
import { listContractFiles } from "@/lib/services/files/list-contract-files";
import { CHUNK_BYTES, postgresFileStore } from "@/lib/services/files/postgres-file-store";
import { uploadAttachment } from "@/lib/services/files/upload-attachment";
import { updateTemplate } from "@/lib/services/templates/update-template";
import { readAttachmentPdf } from "@/lib/pdf/read-attachment-pdf";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { actorOf, failure } from "@/test/services/read-fixtures";

let db: TestDatabase;
let w: Awaited<ReturnType<typeof world>>;

const BODY: TBody = {
  sections: [
    { heading: "Order", text: "Order {{field.po}} for {{ field.amount }}.\n\nBetween {{parties}}." },
    { heading: "Signatures", text: "{{signatories}}" },
  ],
};

async function world() {
  const p = db.prisma;
  const a = await createWorkspace(p, { name: "Alpha", companyName: "Alpha AB", countryCode: "SE" });
  const b = await createWorkspace(p, { name: "Beta" });
  const template = await createTemplate(p, {
    name: "PO",
    workspaceIds: [a.id],
    body: BODY,
    dataFields: [{ name: "PO number", customId: "po" }, { name: "Amount", customId: "amount", defaultValue: "100 SEK" }],
  });
  const shared = await createTemplate(p, { name: "Shared", workspaceIds: [a.id, b.id], dataFields: [{ name: "X", customId: "x" }] });
  const editor = await createUser(p, { name: "Eddie", memberships: [{ workspaceId: a.id, role: "editor" }, { workspaceId: b.id, role: "viewer" }] });
  const viewer = await createUser(p, { memberships: [{ workspaceId: a.id, role: "viewer" }] });
  const outsider = await createUser(p, { memberships: [{ workspaceId: b.id, role: "editor" }] });
  const both = await createUser(p, { memberships: [{ workspaceId: a.id, role: "editor" }, { workspaceId: b.id, role: "editor" }] });
  return {
    a,
    b,
    template,
    shared,
    editor: await actorOf(p, editor),
    viewer: await actorOf(p, viewer),
    outsider: await actorOf(p, outsider),
    both: await actorOf(p, both),
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  w = await world();
});
afterAll(() => db.cleanup());

async function newDraft() {
  const request = ZCreateContractRequestSchema.parse({
    workspace_id: w.a.id,
    template_id: w.template.id,
    parties: [{ type: "individual", participant: { name: "Søren Ærø", email: "s@example.org", delivery_channel: "email", signatory: true } }],
  });
  return createContract({ db: db.prisma, actor: w.editor, request });
}

const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), Buffer.alloc(40)]);
const pdf = async () => {
  const doc = await PDFDocument.create();
  doc.addPage();
  return doc.save();
};

async function fileCounts() {
  return { files: await db.prisma.contractFile.count({ where: { type: "attachment" } }), chunks: await db.prisma.fileChunk.count(), audit: await db.prisma.auditEvent.count() };
}

describe("template bodies", () => {
  it("refuses a placeholder naming no data field, and a body over 200 KB, by path", () => {
    expect(bodyProblems({ sections: [{ heading: "", text: "{{field.nope}} {{partys}}" }] }, ["po"])).toEqual({
      "body.sections.0.text": [expect.stringContaining("{{field.nope}} names no data field"), expect.stringContaining("{{partys}} is not a placeholder")],
    });
    const big = { sections: [{ heading: "", text: "x".repeat(MAX_BODY_BYTES) }] };
    expect(Object.keys(bodyProblems(big, []))).toEqual(["body"]);
  });

  it("the demo templates' texts name only their data fields", () => {
    expect(bodyProblems(NDA_BODY, ["effective_date", "term"])).toEqual({});
    expect(bodyProblems(SERVICE_AGREEMENT_BODY, ["order_value", "delivery_date", "payment_terms"])).toEqual({});
    expect(bodyProblems(EMPLOYMENT_BODY, ["start_date", "salary"])).toEqual({});
    expect(bodyProblems(PURCHASE_ORDER_BODY, ["po_number", "amount", "currency"])).toEqual({});
  });

  it("updateTemplate saves a valid body with its audit event; refuses bad placeholders (400) and a reader (403)", async () => {
    const body = { sections: [{ heading: "Terms", text: "Value {{field.x}}" }] };
    const before = await db.prisma.auditEvent.count({ where: { action: "template.update" } });
    const row = await updateTemplate({ db: db.prisma, actor: w.both, templateId: w.shared.id, request: { body } });
    expect(row.body).toEqual(body);
    expect(await db.prisma.auditEvent.count({ where: { action: "template.update" } })).toBe(before + 1);

    const bad = await failure(updateTemplate({ db: db.prisma, actor: w.editor, templateId: w.template.id, request: { body: { sections: [{ heading: "", text: "{{field.missing}}" }] } } }));
    expect(bad).toMatchObject({ key: "validation_failed", status: 400, problems: { "body.sections.0.text": [expect.stringContaining("missing")] } });
    // An editor of one workspace only reads the other one the template is shared with.
    const sentence = "You may not change this template: it is used in a workspace where your role does not allow changes.";
    const said = async (promise: Promise<unknown>) => ((await promise.catch((error: unknown) => error)) as Error).message;
    expect(await said(updateTemplate({ db: db.prisma, actor: w.editor, templateId: w.shared.id, request: { body } }))).toBe(sentence);
    expect(await said(updateTemplate({ db: db.prisma, actor: w.viewer, templateId: w.template.id, request: { body: BODY } }))).toBe(sentence);
    expect(await failure(updateTemplate({ db: db.prisma, actor: w.editor, templateId: w.shared.id, request: { body } }))).toMatchObject({ status: 403 });
    // The same for an editor who cannot see the other workspace at all: the template is visible, so 403, not 404.
    const alphaOnly = await actorOf(db.prisma, await createUser(db.prisma, { memberships: [{ workspaceId: w.a.id, role: "editor" }] }));
    expect(await failure(updateTemplate({ db: db.prisma, actor: alphaOnly, templateId: w.shared.id, request: { body } }))).toMatchObject({ key: "role_cannot_write", status: 403 });
    expect(await failure(updateTemplate({ db: db.prisma, actor: w.viewer, templateId: w.template.id, request: { body: BODY } }))).toMatchObject({ status: 403 });
    expect((await db.prisma.template.findUniqueOrThrow({ where: { id: w.template.id } })).body).toEqual(BODY);
  });
});

describe("the contract's text", () => {
  it("is copied from the template at creation and rendered with values, empty fields marked", async () => {
    const contract = await newDraft();
    const { document } = await getContractDocument({ db: db.prisma, actor: w.editor, contractId: contract.id });
    const text = document.sections.flatMap((s) => s.blocks.flatMap((b) => (b.kind === "paragraph" ? [b.segments] : b.items))).map((segs) => segs.map((s) => s.text).join(""));
    expect(text).toContain("Order [PO number] for 100 SEK.");
    expect(text).toContain("Between Alpha AB and Søren Ærø.");
    expect(text).toContain("Søren Ærø for Søren Ærø");
    expect(document.missingFields).toEqual([{ customId: "po", name: "PO number" }]);
    // Changing the template later does not change the contract.
    expect((await db.prisma.contract.findUniqueOrThrow({ where: { id: contract.id } })).body).toEqual(BODY);
  });

  it("publish readiness names every data field the text needs that has no value", async () => {
    const contract = await newDraft();
    const problems = await getPublishReadiness({ db: db.prisma, actor: w.editor, contractId: contract.id });
    // The API's sentence names the field and its custom id (how clients name it, unchanged); the field
    // itself comes along, so the contract page can name it as staff know it (by its name alone).
    expect(problems.filter((p) => p.path.startsWith("data_fields."))).toEqual([
      expect.objectContaining({ path: "data_fields.po", message: "The text needs a value for the data field PO number (po).", missingDataField: { customId: "po", name: "PO number" } }),
    ]);
    expect(problems.filter((p) => !p.path.startsWith("data_fields.")).every((p) => p.missingDataField === undefined)).toBe(true);
    await db.prisma.contractDataField.updateMany({ where: { contractId: contract.id, customId: "po" }, data: { value: "PO-1" } });
    expect((await getPublishReadiness({ db: db.prisma, actor: w.editor, contractId: contract.id })).filter((p) => p.path.startsWith("data_fields."))).toEqual([]);
  });

  it("changes in a draft, is frozen once published (409), and refuses unknown placeholders (400)", async () => {
    const contract = await newDraft();
    const body = { sections: [{ heading: "Short", text: "PO {{field.po}}" }] };
    await updateContractBody({ db: db.prisma, actor: w.editor, contractId: contract.id, request: { body } });
    expect((await db.prisma.contract.findUniqueOrThrow({ where: { id: contract.id } })).body).toEqual(body);
    expect(await failure(updateContractBody({ db: db.prisma, actor: w.editor, contractId: contract.id, request: { body: { sections: [{ heading: "", text: "{{field.zz}}" }] } } }))).toMatchObject({ status: 400 });
    await db.prisma.contract.update({ where: { id: contract.id }, data: { state: "pending" } });
    expect(await failure(updateContractBody({ db: db.prisma, actor: w.editor, contractId: contract.id, request: { body: BODY } }))).toMatchObject({ key: "contract_text_frozen", status: 409 });
    expect(await failure(updateContractBody({ db: db.prisma, actor: w.outsider, contractId: contract.id, request: { body: BODY } }))).toMatchObject({ status: 404 });
  });

  it("changes only the version of the text named (expectedVersions): another is 412 and writes nothing", async () => {
    const contract = await newDraft();
    const read = await getContractDocument({ db: db.prisma, actor: w.editor, contractId: contract.id });
    const loaded = bodyDigest(read.body).sha256;
    const mine = { sections: [{ heading: "Mine", text: "PO {{field.po}}" }] };
    await updateContractBody({ db: db.prisma, actor: w.editor, contractId: contract.id, request: { body: mine }, expectedVersions: [loaded] });
    const saved = bodyDigest((await getContractDocument({ db: db.prisma, actor: w.editor, contractId: contract.id })).body).sha256;
    expect(saved).not.toBe(loaded);
    const stale = updateContractBody({ db: db.prisma, actor: w.editor, contractId: contract.id, request: { body: BODY }, expectedVersions: [loaded] });
    await expect(stale).rejects.toMatchObject({ key: "stale_if_match", status: 412, current: saved });
    expect((await db.prisma.contract.findUniqueOrThrow({ where: { id: contract.id } })).body).toEqual(mine);
  });

  it("renders every signatory and data field value", () => {
    const doc = renderDocument({
      name: "N",
      body: { sections: [{ heading: "H", text: "{{field.a}}" }] },
      dataFields: [{ customId: "a", name: "A", value: "Åsa" }],
      parties: [{ name: "P", type: "individual", identificationNumber: "", countryCode: "", myParty: false, participants: [{ name: "Öz", title: "", email: "", signatory: true, signState: "signed", signStateUpdatedAt: new Date(0) }] }],
    });
    expect(doc.sections[0]!.blocks[0]).toEqual({ kind: "paragraph", segments: [{ field: "a", name: "A", text: "Åsa", missing: false }] });
    expect(doc.signatories).toEqual([{ name: "Öz", title: "", party: "P", signState: "signed", signedAt: "1970-01-01T00:00:00.000Z" }]);
  });
});

describe("attachments", () => {
  it("stores a PDF and a PNG with their audit events, lists them with the contract PDF, streams them back", async () => {
    const contract = await newDraft();
    const pdfBytes = await pdf();
    const a = await uploadAttachment({ db: db.prisma, actor: w.editor, contractId: contract.id, name: "C:\\docs\\Price list.PDF", bytes: pdfBytes });
    expect(a).toMatchObject({ type: "attachment", name: "Price list.pdf", contentType: "application/pdf", size: pdfBytes.length });
    await uploadAttachment({ db: db.prisma, actor: w.editor, contractId: contract.id, name: "logo.txt", bytes: png() });
    const files = await listContractFiles({ db: db.prisma, actor: w.editor, contractId: contract.id });
    expect(files.map((f) => [f.type, f.name, f.contentType])).toEqual([
      ["contract", "contract", "application/pdf"],
      ["attachment", "Price list.pdf", "application/pdf"],
      ["attachment", "logo.png", "image/png"],
    ]);
    const opened = await openContractFile({ db: db.prisma, actor: w.editor, contractId: contract.id, fileId: a.id });
    expect(Buffer.from(await new Response(opened.body).arrayBuffer())).toEqual(Buffer.from(pdfBytes));
    expect(await db.prisma.auditEvent.count({ where: { contractId: contract.id, action: "contract_file.create" } })).toBe(2);
  });

  it("refuses, leaving nothing behind: wrong type 415, over 10 MB 413, a PDF bomb or broken PDF 400, another workspace 404, a viewer 403", async () => {
    const contract = await newDraft();
    const before = await fileCounts();
    const upload = (bytes: Uint8Array, actor = w.editor) => failure(uploadAttachment({ db: db.prisma, actor, contractId: contract.id, name: "f", bytes }));
    expect(await upload(Buffer.from("GIF89a not accepted"))).toMatchObject({ key: "file_type_not_accepted", status: 415 });
    expect(await upload(Buffer.from("%PDF-1.7\nnot really"))).toMatchObject({ key: "file_unreadable", status: 400 });
    expect(await upload(Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 0x25))).toMatchObject({ key: "file_too_large", status: 413 });
    // An object stream that inflates to 512 MiB: refused once the decoded bytes pass the budget.
    const inflated = deflateSync(Buffer.alloc(512 * 1024 * 1024, 0x20), { level: 9 });
    const bomb = Buffer.concat([
      Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n3 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${inflated.length} >>\nstream\n`),
      inflated,
      Buffer.from("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R /Size 4 >>\n%%EOF\n"),
    ]);
    expect(await upload(bomb)).toMatchObject({ key: "file_unreadable", status: 400 });
    expect(await readAttachmentPdf(bomb)).toEqual({ outcome: "too_complex" });
    expect(await upload(png(), w.outsider)).toMatchObject({ status: 404 });
    expect(await upload(png(), w.viewer)).toMatchObject({ status: 403 });
    expect(await fileCounts()).toEqual(before);
  }, 60_000);

  it("refuses a PDF with what would act in the signer's reader, in the document's words (400, one sentence, nothing stored)", async () => {
    const contract = await newDraft();
    const before = await fileCounts();
    const acting = async (set: (doc: PDFDocument) => void) => {
      const doc = await PDFDocument.create();
      doc.addPage();
      set(doc);
      return doc.save();
    };
    const refusal = async (bytes: Uint8Array) => {
      const error = await uploadAttachment({ db: db.prisma, actor: w.editor, contractId: contract.id, name: "terms.pdf", bytes }).then(
        () => null,
        (e: unknown) => e as { key?: string; status?: number; message?: string },
      );
      return error && { key: error.key, status: error.status, message: error.message };
    };
    const script = await acting((doc) => doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj({ S: "JavaScript", JS: PDFString.of("app.alert(1)") })));
    expect(await refusal(script)).toEqual({
      key: "file_unreadable",
      status: 400,
      message: "The PDF contains JavaScript, which an attachment may not carry; print it to PDF again and attach that.",
    });
    const launch = await acting((doc) => doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj({ S: "Launch", F: PDFString.of("calc.exe") })));
    expect((await refusal(launch))?.message).toBe("The PDF contains an action that launches a program, which an attachment may not carry; print it to PDF again and attach that.");
    expect(await fileCounts()).toEqual(before);
    // The same PDF without it is attached.
    expect(await refusal(await acting(() => undefined))).toBeNull();
  });

  it("at most 20 a contract (409); only in a draft (409); removable in a draft with its bytes", async () => {
    const contract = await newDraft();
    const rows = [];
    for (let i = 0; i < MAX_ATTACHMENTS; i++) rows.push(await uploadAttachment({ db: db.prisma, actor: w.editor, contractId: contract.id, name: `p${i}.png`, bytes: png() }));
    expect(await failure(uploadAttachment({ db: db.prisma, actor: w.editor, contractId: contract.id, name: "x.png", bytes: png() }))).toMatchObject({ key: "attachment_limit_reached", status: 409 });
    const chunks = await db.prisma.fileChunk.count();
    await deleteAttachment({ db: db.prisma, actor: w.editor, contractId: contract.id, fileId: rows[0]!.id });
    expect(await db.prisma.fileChunk.count()).toBe(chunks - 1);
    expect(await db.prisma.auditEvent.count({ where: { contractId: contract.id, action: "contract_file.delete" } })).toBe(1);
    const pdfFile = (await listContractFiles({ db: db.prisma, actor: w.editor, contractId: contract.id })).find((f) => f.type === "contract")!;
    expect(await failure(deleteAttachment({ db: db.prisma, actor: w.editor, contractId: contract.id, fileId: pdfFile.id }))).toMatchObject({ status: 409 });
    await db.prisma.contract.update({ where: { id: contract.id }, data: { state: "pending" } });
    expect(await failure(deleteAttachment({ db: db.prisma, actor: w.editor, contractId: contract.id, fileId: rows[1]!.id }))).toMatchObject({ key: "contract_text_frozen", status: 409 });
    expect(await failure(uploadAttachment({ db: db.prisma, actor: w.editor, contractId: contract.id, name: "x.png", bytes: png() }))).toMatchObject({ key: "contract_text_frozen", status: 409 });
    // Another contract's file is not found through this one.
    const other = await newDraft();
    expect(await failure(openContractFile({ db: db.prisma, actor: w.editor, contractId: other.id, fileId: rows[1]!.id }))).toMatchObject({ status: 404 });
  }, 60_000);

  it("every contract has its contract file, however its row was written", async () => {
    const row = await createContractRow(db.prisma, { workspaceId: w.a.id, templateId: w.template.id });
    expect(await db.prisma.contractFile.findMany({ where: { contractId: row.id }, select: { type: true } })).toEqual([{ type: "contract" }]);
  });
});

describe("the PostgreSQL file store", () => {
  it("keeps a file in 256 KiB chunks and streams it back a chunk at a time", async () => {
    const contract = await newDraft();
    const bytes = Buffer.alloc(CHUNK_BYTES * 2 + 1234);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
    const key = "test-store-key";
    await db.prisma.$transaction(async (tx) => {
      await tx.contractFile.create({ data: { contractId: contract.id, type: "attachment", name: "x", contentType: "image/png", storageKey: key, size: bytes.length } });
      await fileStore().put(tx, key, bytes);
    });
    expect(await db.prisma.fileChunk.count({ where: { storageKey: key } })).toBe(3);
    const reader = fileStore().stream(db.prisma, key).getReader();
    const sizes: number[] = [];
    const parts: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      sizes.push(r.value.length);
      parts.push(r.value);
    }
    expect(sizes).toEqual([CHUNK_BYTES, CHUNK_BYTES, 1234]);
    expect(Buffer.concat(parts)).toEqual(bytes);
    expect(Buffer.from(await fileStore().read(db.prisma, key))).toEqual(bytes);
  });
});

describe("deleting a contract", () => {
  it("removes its attachments' bytes through the file store (a store outside the database gets the call too)", async () => {
    const { deleteContract } = await import("@/lib/services/contracts/delete-contract");
    const contract = await newDraft();
    const file = await uploadAttachment({ db: db.prisma, actor: w.editor, contractId: contract.id, name: "a.png", bytes: png() });
    expect(await db.prisma.fileChunk.count({ where: { storageKey: file.storageKey! } })).toBe(1);
    const remove = vi.spyOn(postgresFileStore, "remove");
    await deleteContract({ db: db.prisma, actor: w.editor, contractId: contract.id });
    expect(remove.mock.calls.map(([, key]) => key)).toEqual([file.storageKey]);
    remove.mockRestore();
    expect(await db.prisma.fileChunk.count({ where: { storageKey: file.storageKey! } })).toBe(0);
    expect(await db.prisma.contractFile.count({ where: { contractId: contract.id } })).toBe(0);
  });
});
