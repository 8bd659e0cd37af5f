// The sealed copy of a contract whose document is a PDF staff uploaded (issue 46): the original's
// pages with every placed box stamped on them, the completion certificate after them (the uploaded
// original's SHA-256, its pages, each box), the seal over all of it. Made through the product's own
// operations (upload, boxes, publish, sign by link, the sealing job), then read with pdfsig, qpdf and
// pdftotext (words with their boxes), and checked by /verify's logic.
import { createHash } from "node:crypto";

import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createContract } from "@/lib/db/seed/factories";
import type { TUserActor } from "@/lib/domain/actor";
import { boxInPoints, pageFrame } from "@/lib/pdf/stamp-placements";
import { publishContract } from "@/lib/services/contracts/publish-contract";
import { fileStore } from "@/lib/services/files/file-store";
import { uploadContractPdf } from "@/lib/services/files/upload-contract-pdf";
import { createPlacement } from "@/lib/services/placements/create-placement";
import { buildSealedPdf, type TSealPlacement } from "@/lib/services/seal/build-sealed-pdf";
import { sealDueContracts } from "@/lib/services/seal/seal-contracts";
import { verifySealedPdf } from "@/lib/services/seal/verify-sealed-pdf";
import { decideByLink } from "@/lib/services/signing/decide-by-link";
import { getSigningLink } from "@/lib/services/signing/get-signing-link";
import type { TestDatabase } from "@/test/helpers/db";
import { makeUploadedPdf, pageTexts, pdfTool, pdfWords, sealIdentityWithoutDatabase, syntheticSealInput, type TUploadPage } from "@/test/helpers/sealed-pdf";
import { createStaff, createTestWorld, ownerOf } from "@/test/helpers/world";

const ORIGIN = "http://seal-upload.test";
const PAGES: TUploadPage[] = [
  { lines: ["Leveransavtal", "Clause 1 of the uploaded original"] },
  { lines: ["Clause 2 of the uploaded original", "The parties sign below."] },
  // A landscape page, made as a portrait page turned a quarter.
  { rotate: 90, lines: ["Clause 3 of the uploaded original", "Signed for Bjørn Ærø below."] },
];
const SIGNERS = ["Åsa Öberg", "Bjørn Ærø"];
/** Each signer's boxes: a signature, their name and the date, on page 2 (Åsa) and page 3 (Bjørn). */
const BOXES = [
  { signer: 0, kind: "signature", page: 2, x: 0.1, y: 0.62, width: 0.38, height: 0.08 },
  { signer: 0, kind: "name", page: 2, x: 0.1, y: 0.71, width: 0.38, height: 0.03 },
  { signer: 0, kind: "date_signed", page: 2, x: 0.1, y: 0.75, width: 0.2, height: 0.03 },
  { signer: 1, kind: "signature", page: 3, x: 0.55, y: 0.55, width: 0.35, height: 0.14 },
  { signer: 1, kind: "name", page: 3, x: 0.55, y: 0.71, width: 0.35, height: 0.05 },
  { signer: 1, kind: "date_signed", page: 3, x: 0.55, y: 0.77, width: 0.2, height: 0.05 },
] as const;
const PRICE_BOX = { kind: "data_field", page: 1, x: 0.55, y: 0.1, width: 0.35, height: 0.03 } as const;

let db: TestDatabase;
let staff: TUserActor;
let ws: { id: number };
let template: { id: number };

beforeAll(async () => {
  ({ db, ws, template } = await createTestWorld({ workspace: { name: "Nordic Trade" }, template: { dataFields: [{ name: "Price", customId: "price", defaultValue: "125 000 SEK" }] } }));
  staff = await createStaff(db.prisma);
});
afterAll(() => db.cleanup());

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("an uploaded PDF, boxed, signed by two and sealed by the job", () => {
  let id: number;
  let original: Uint8Array;
  let pdf: Buffer;
  let signers: { id: number; name: string; signStateUpdatedAt: Date | null }[];

  beforeAll(async () => {
    const contract = await createContract(db.prisma, {
      workspaceId: ws.id,
      templateId: template.id,
      name: "Leveransavtal",
      owner: ownerOf(staff),
      counterparties: SIGNERS.map((name) => ({ type: "individual" as const, participant: { name, twoStepMethod: "none" as const } })),
    });
    id = contract.id;
    original = await makeUploadedPdf(PAGES, { embedded: true });
    await uploadContractPdf({ db: db.prisma, actor: staff, contractId: id, name: "Leveransavtal.pdf", bytes: original });
    const participants = await db.prisma.participant.findMany({ where: { party: { contractId: id, myParty: false } }, orderBy: { id: "asc" } });
    const byName = (name: string) => participants.find((p) => p.name === name)!;
    for (const b of BOXES) {
      const { signer, ...box } = b;
      await createPlacement({ db: db.prisma, actor: staff, contractId: id, request: { ...box, participant_id: byName(SIGNERS[signer]!).id } });
    }
    const price = await db.prisma.contractDataField.findFirstOrThrow({ where: { contractId: id, customId: "price" } });
    await createPlacement({ db: db.prisma, actor: staff, contractId: id, request: { ...PRICE_BOX, data_field_id: price.id } });

    await publishContract({ db: db.prisma, actor: staff, contractId: id, linkOrigin: ORIGIN });
    for (const [i, name] of SIGNERS.entries()) {
      const p = byName(name);
      const { url } = await getSigningLink({ db: db.prisma, actor: staff, contractId: id, partyId: p.partyId, participantId: p.id, linkOrigin: ORIGIN });
      await decideByLink({ db: db.prisma, token: url.split("/sign/")[1]!, decision: { kind: "sign", fullName: p.name }, client: { ip: `203.0.113.${20 + i}`, userAgent: "TestBrowser/3.0" } });
    }
    expect(await sealDueContracts({ db: db.prisma })).toMatchObject({ claimed: 1, sealed: 1 });
    const file = await db.prisma.contractFile.findFirstOrThrow({ where: { contractId: id, type: "verification" } });
    pdf = Buffer.from(await fileStore().read(db.prisma, file.storageKey!));
    signers = await db.prisma.participant.findMany({ where: { id: { in: participants.map((p) => p.id) } }, orderBy: { id: "asc" }, select: { id: true, name: true, signStateUpdatedAt: true } });
  });

  it("pdfsig validates the seal over the whole file; qpdf finds the structure sound", () => {
    const sig = pdfTool(pdf, "pdfsig", ["FILE"]);
    expect(sig).toContain("Total document signed");
    expect(sig).toContain("Signature Validation: Signature is Valid.");
    expect(pdfTool(pdf, "qpdf", ["--check", "FILE"])).toContain("No syntax or stream encoding errors found");
  });

  it("holds the original's pages with their own text, each stamped with its boxes, then the certificate", async () => {
    const pages = pageTexts(pdf);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBeGreaterThan(PAGES.length);
    PAGES.forEach((spec, i) => {
      for (const line of spec.lines) expect(pages[i + 1]).toContain(line);
      expect(pages[i + 1]).not.toContain("Completion certificate");
    });
    const [asa, bjorn] = signers.map((s) => ({ ...s, at: s.signStateUpdatedAt!.toISOString() }));
    expect(pages[1]).toContain("125 000 SEK");
    expect(pages[2]).toContain("Åsa Öberg");
    expect(pages[2]).toContain(`Signed electronically ${asa!.at.slice(0, 10)} ${asa!.at.slice(11, 16)} UTC`);
    expect(pages[2]).toContain(asa!.at.slice(0, 10));
    expect(pages[2]).not.toContain("Bjørn Ærø\n");
    expect(pages[3]).toContain(`Signed electronically ${bjorn!.at.slice(0, 10)} ${bjorn!.at.slice(11, 16)} UTC`);
    expect(pages[4]).toContain("Completion certificate");
  });

  it("draws each signer's name inside each of their boxes, on the box's page", async () => {
    const frames = (await PDFDocument.load(original)).getPages().map(pageFrame);
    const words = pdfWords(pdf);
    for (const b of BOXES) {
      const name = signers.find((s) => s.name === SIGNERS[b.signer])!.name;
      if (b.kind === "date_signed") continue;
      const box = boxInPoints(frames[b.page - 1]!, b);
      for (const part of name.split(" ")) {
        const found = words.filter((w) => w.text === part && w.left >= box.x - 0.5 && w.top >= box.y - 0.5 && w.left + w.width <= box.x + box.width + 0.5 && w.top + w.height <= box.y + box.height + 0.5);
        expect(
          found.map((w) => w.page),
          `"${part}" (${b.kind}) in ${JSON.stringify(box)} on page ${b.page}: ${JSON.stringify(words.filter((w) => w.text === part))}`,
        ).toEqual([b.page]);
      }
    }
  });

  it("the certificate names the uploaded PDF by its SHA-256 as stored, its pages, and every box", async () => {
    const stored = await db.prisma.contractFile.findFirstOrThrow({ where: { contractId: id, type: "contract" } });
    expect(stored.sha256).toBe(sha256(original));
    const certificate = pageTexts(pdf, { layout: true }).slice(PAGES.length + 1).join("\n");
    expect(certificate.replace(/\s/g, "")).toContain(`DocumentSHA-256${sha256(original)}`);
    const text = certificate.replace(/\s+/g, " ");
    expect(text).toContain("Document the uploaded PDF, Leveransavtal.pdf");
    expect(text).toContain(`Document pages ${PAGES.length}`);
    for (const line of ["Page 1 Data field: Price", "Page 2 Signature: Åsa Öberg", "Page 2 Name: Åsa Öberg", "Page 2 Date signed: Åsa Öberg", "Page 3 Signature: Bjørn Ærø", "Page 3 Date signed: Bjørn Ærø"]) {
      expect(text).toContain(line);
    }
    expect(text).toContain("contract.document_upload");
  });

  it("verifies as intact; a changed byte makes it changed", async () => {
    expect(await verifySealedPdf({ db: db.prisma, pdf })).toMatchObject({ verdict: "intact", contract: { id } });
    const changed = Buffer.from(pdf);
    const at = Math.floor(pdf.length / 3);
    changed[at] = changed[at] === 0x30 ? 0x31 : 0x30;
    expect((await verifySealedPdf({ db: db.prisma, pdf: changed })).verdict).toBe("changed");
  });
});

describe("building the copy of an uploaded PDF", () => {
  const box = (participantId: number | null, kind: TSealPlacement["kind"], page = 1): TSealPlacement => ({ page, x: 0.1, y: 0.5, width: 0.5, height: 0.08, kind, participantId, dataField: null });

  it("refuses bytes that are not the ones stored (their SHA-256 differs)", async () => {
    const bytes = await makeUploadedPdf([{ lines: ["One page"] }]);
    const input = syntheticSealInput({ upload: { name: "x.pdf", sha256: sha256(bytes).replace(/^./, (c) => (c === "0" ? "1" : "0")), bytes, placements: [] } });
    await expect(buildSealedPdf(input, await sealIdentityWithoutDatabase(), new Date())).rejects.toThrow(/SHA-256/);
  });

  it("stamps a box with its signer's signature, and leaves a box of someone who has not signed empty, saying so", async () => {
    const bytes = await makeUploadedPdf([{ lines: ["One page"] }, { lines: ["Another page"] }]);
    const input = syntheticSealInput({ upload: { name: "x.pdf", sha256: sha256(bytes), bytes, placements: [box(2, "signature"), box(1, "name", 2)] } });
    const pdf = await buildSealedPdf(input, await sealIdentityWithoutDatabase(), new Date("2026-11-28T10:16:00Z"));
    const pages = pageTexts(pdf);
    expect(pages[1]).toContain(input.participants[1]!.signedName);
    expect(pages[2]).not.toContain("Olga Owner");
    const certificate = pages.slice(3).join(" ").replace(/\s+/g, " ");
    expect(certificate).toContain(`Signature: ${input.participants[1]!.name}`);
    expect(certificate).toContain("Name: Olga Owner (not signed)");
  });
});
