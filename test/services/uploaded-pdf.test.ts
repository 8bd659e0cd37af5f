// Issue 46 in the services: an uploaded PDF's boxes follow their people (a delegate takes over the
// delegator's boxes; a removed participant's go with them), and a refused upload stores nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { createContract } from "@/lib/db/seed/factories";
import type { TUserActor } from "@/lib/domain/actor";
import { publishContract } from "@/lib/services/contracts/publish-contract";
import { uploadContractPdf } from "@/lib/services/files/upload-contract-pdf";
import { MAX_PLACEMENTS } from "@/lib/domain/placement";
import { createPlacement } from "@/lib/services/placements/create-placement";
import { delegateByLink } from "@/lib/services/signing/delegate-by-link";
import { getSigningLink } from "@/lib/services/signing/get-signing-link";
import type { TestDatabase } from "@/test/helpers/db";
import { createStaff, createTestWorld, ownerOf } from "@/test/helpers/world";
import { rejection } from "@/test/services/read-fixtures";

const ORIGIN = "http://uploaded-pdf.test";
let db: TestDatabase;
let staff: TUserActor;
let ws: { id: number };
let template: { id: number };

beforeAll(async () => {
  ({ db, ws, template } = await createTestWorld({}));
  staff = await createStaff(db.prisma);
});
afterAll(() => db.cleanup());

async function pdfOf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) doc.addPage().drawText(`Page ${n}`, { x: 72, y: 700, size: 12, font });
  return doc.save();
}

async function draftWithPdf() {
  const contract = await createContract(db.prisma, {
    workspaceId: ws.id,
    templateId: template.id,
    owner: ownerOf(staff),
    counterparties: [{ type: "company", name: "Nordic AB", participants: [{ name: "Nia Nord", email: `nia.${Date.now()}@example.org`, signatory: true }] }],
  });
  await db.prisma.contract.update({ where: { id: contract.id }, data: { delegationAllowed: true } });
  const nia = await db.prisma.participant.findFirstOrThrow({ where: { party: { contractId: contract.id }, name: "Nia Nord" } });
  await uploadContractPdf({ db: db.prisma, actor: staff, contractId: contract.id, name: "paper.pdf", bytes: await pdfOf(2) });
  return { id: contract.id, nia };
}

const box = (participantId: number) => ({ kind: "signature" as const, participant_id: participantId, page: 2, x: 0.1, y: 0.8, width: 0.3, height: 0.06 });

describe("an uploaded PDF's boxes", () => {
  it("move to the delegate when a signatory hands their signature on", async () => {
    const c = await draftWithPdf();
    const placed = await createPlacement({ db: db.prisma, actor: staff, contractId: c.id, request: box(c.nia.id) });
    await publishContract({ db: db.prisma, actor: staff, contractId: c.id, linkOrigin: ORIGIN });
    const { url } = await getSigningLink({ db: db.prisma, actor: staff, contractId: c.id, partyId: c.nia.partyId, participantId: c.nia.id, linkOrigin: ORIGIN });
    await delegateByLink({ db: db.prisma, token: url.split("/sign/")[1]!, delegation: { name: "Dora Delegate", email: `dora.${Date.now()}@example.org`, reason: "" } });
    const delegator = await db.prisma.participant.findUniqueOrThrow({ where: { id: c.nia.id } });
    expect(await db.prisma.placement.findUniqueOrThrow({ where: { id: placed.id } })).toMatchObject({ participantId: delegator.delegatedToId, page: 2 });
  });

  it("go with a participant who is removed", async () => {
    const c = await draftWithPdf();
    const placed = await createPlacement({ db: db.prisma, actor: staff, contractId: c.id, request: box(c.nia.id) });
    await db.prisma.participant.delete({ where: { id: c.nia.id } });
    expect(await db.prisma.placement.findUnique({ where: { id: placed.id } })).toBeNull();
  });

  it("a refused upload stores nothing: the earlier PDF and its boxes stay", async () => {
    const c = await draftWithPdf();
    await createPlacement({ db: db.prisma, actor: staff, contractId: c.id, request: box(c.nia.id) });
    const before = await db.prisma.contractFile.findFirstOrThrow({ where: { contractId: c.id, type: "contract" } });
    const broken = (await pdfOf(1)).slice(0, 200);
    expect(await rejection(uploadContractPdf({ db: db.prisma, actor: staff, contractId: c.id, name: "x.pdf", bytes: broken }))).toEqual({ key: "file_unreadable", status: 400 });
    expect(await db.prisma.contractFile.findFirstOrThrow({ where: { contractId: c.id, type: "contract" } })).toEqual(before);
    expect(await db.prisma.placement.count({ where: { contractId: c.id } })).toBe(1);
  });

  it("are at most 500 a contract (409 placement_limit_reached, counted under the contract's lock)", async () => {
    const c = await draftWithPdf();
    for (let i = 0; i < MAX_PLACEMENTS; i++) await createPlacement({ db: db.prisma, actor: staff, contractId: c.id, request: box(c.nia.id) });
    expect(await rejection(createPlacement({ db: db.prisma, actor: staff, contractId: c.id, request: box(c.nia.id) }))).toEqual({ key: "placement_limit_reached", status: 409 });
    expect(await db.prisma.placement.count({ where: { contractId: c.id } })).toBe(MAX_PLACEMENTS);
  }, 120_000);
});
