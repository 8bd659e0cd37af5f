// Issue 46's bound on the sealed copy of an uploaded PDF: a 50-page PDF with 20 boxes is stamped,
// given its completion certificate and sealed (lib/services/seal/build-sealed-pdf.ts, the sealing
// job's build, signature included) in under 2 s of CPU. Measured like bench/contract-pdf.ts: in the
// bench's own process while it does nothing else, once to warm up, then `RUNS` times; the slowest
// run is the one checked. process.cpuUsage counts every thread of the process, so the signing
// worker's CPU is in it.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";

import fontkit from "@pdf-lib/fontkit";
import { degrees, PDFDocument } from "pdf-lib";

import type { Tx } from "@/lib/db";
import { renderDocument } from "@/lib/domain/contract-document";
import { buildSealedPdf, type TSealInput, type TSealParticipant, type TSealPlacement } from "@/lib/services/seal/build-sealed-pdf";
import { loadSealIdentity, type TSealIdentity } from "@/lib/services/seal/seal-identity";

export interface SealedUploadMeasurement {
  /** Pages of the uploaded original. */
  pages: number;
  boxes: number;
  /** Pages of the sealed copy (the original's and the certificate's). */
  sealedPages: number;
  bytes: number;
  /** CPU time (user + system, every thread) of each measured build, ms. */
  cpuMs: number[];
  wallMs: number[];
}

export const SEALED_UPLOAD_PAGES = 50;
export const SEALED_UPLOAD_BOXES = 20;
const RUNS = 3;
const SIGNERS = ["Åsa Öberg", "Bjørn Ærø", "Søren Æbeltoft", "Jörg Lindqvist", "Maija Häkkinen"];

/**
 * An uploaded original as a word processor exports one: `pages` pages of 44 lines of text in an
 * embedded font (DejaVu Sans Bold, a subset), one of them landscape (a portrait page turned), the
 * last one short, with room for the signatures.
 */
export async function benchUploadedPdf(pages = SEALED_UPLOAD_PAGES): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(await readFile(path.join(process.cwd(), "assets/fonts/DejaVuSans-Bold.ttf")), { subset: true });
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([595.28, 841.89]);
    if (n === Math.ceil(pages / 2)) page.setRotation(degrees(90));
    // The last page, where the signatures go, has a few lines and room below them.
    for (let line = 0; line < (n === pages ? 3 : 44); line++) {
      page.drawText(`${n}.${line + 1} Leverantören ansvarar för att varorna är i gott skick när de når köparen.`, { x: 56, y: 780 - line * 16, size: 9, font });
    }
  }
  return doc.save();
}

const participant = (id: number, name: string, signedAt: Date): TSealParticipant => ({
  id,
  name,
  title: "",
  email: `signer${id}@example.org`,
  party: `Party ${id}`,
  myParty: id === 1,
  signatory: true,
  organizer: id === 1,
  signState: "signed",
  signStateUpdatedAt: signedAt,
  signedName: name,
  signMethod: "standard_esign",
  twoStepMethod: "email",
  decidedIp: `203.0.113.${id}`,
  decidedUserAgent: "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/140.0",
});

/** A signed contract on `original`: five signatories, each with a signature, name and date box on the last page, and five data-field boxes. */
export function benchSealInput(original: Uint8Array, pages = SEALED_UPLOAD_PAGES): TSealInput {
  const completedAt = new Date("2026-11-28T10:15:00Z");
  const participants = SIGNERS.map((name, i) => participant(i + 1, name, new Date(completedAt.getTime() - (SIGNERS.length - i) * 3_600_000)));
  const placements: TSealPlacement[] = participants.flatMap((p, i) =>
    (["signature", "name", "date_signed"] as const).map((kind, k) => ({
      page: pages,
      x: i % 2 === 0 ? 0.08 : 0.54,
      y: 0.2 + Math.floor(i / 2) * 0.26 + [0, 0.1, 0.15][k]!,
      width: 0.38,
      height: kind === "signature" ? 0.09 : 0.04,
      kind,
      participantId: p.id,
      dataField: null,
    })),
  );
  for (let i = 0; placements.length < SEALED_UPLOAD_BOXES; i++) {
    placements.push({ page: 1 + ((i * 11) % pages), x: 0.6, y: 0.9, width: 0.3, height: 0.03, kind: "data_field", participantId: null, dataField: { name: `Field ${i + 1}`, value: `PO-2026-ÅÄÖ-${i + 1}` } });
  }
  const events = Array.from({ length: 40 }, (_, i) => ({
    createdAt: new Date(completedAt.getTime() - (40 - i) * 600_000),
    action: i === 39 ? "contract.sign" : i % 2 ? "participant.sign" : "placement.create",
    actorName: SIGNERS[i % SIGNERS.length]!,
    via: "session",
    chainSeq: i + 1,
  }));
  return {
    contract: { id: 1, name: "Leveransavtal – Göteborg", workspaceId: 1, workspaceName: "Sales", completedAt },
    document: renderDocument({ name: "Leveransavtal – Göteborg", body: { sections: [] }, dataFields: [], parties: [] }),
    upload: { name: "Leveransavtal.pdf", sha256: createHash("sha256").update(original).digest("hex"), bytes: original, placements },
    participants,
    attachments: [{ name: "Prislista.pdf", sha256: "0".repeat(64) }],
    events,
    chain: { intact: true, events: events.length, lastHash: "ab".repeat(32), brokenAt: null },
    recipients: [],
  };
}

/** The seal's self-signed identity as the product makes it, kept in a stand-in for its settings table. */
export function benchSealIdentity(): Promise<TSealIdentity> {
  let stored: { key: string; value: string } | undefined;
  const settings = {
    appSetting: {
      createMany: async ({ data }: { data: { key: string; value: string }[] }) => {
        stored ??= data[0];
        return { count: 1 };
      },
      findUniqueOrThrow: async () => stored!,
    },
  };
  return loadSealIdentity(settings as unknown as Tx);
}

export async function measureSealedUploadPdf(runs = RUNS): Promise<SealedUploadMeasurement> {
  const original = await benchUploadedPdf();
  const input = benchSealInput(original);
  const identity = await benchSealIdentity();
  const sealedAt = new Date("2026-11-28T10:16:00Z");
  const warm = await buildSealedPdf(input, identity, sealedAt);
  const cpuMs: number[] = [];
  const wallMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const before = process.cpuUsage();
    await buildSealedPdf(input, identity, sealedAt);
    const cpu = process.cpuUsage(before);
    wallMs.push(Math.round((performance.now() - t0) * 10) / 10);
    cpuMs.push(Math.round((cpu.user + cpu.system) / 100) / 10);
  }
  const sealedPages = (await PDFDocument.load(warm)).getPageCount();
  return { pages: (await PDFDocument.load(original)).getPageCount(), boxes: input.upload!.placements.length, sealedPages, bytes: warm.byteLength, cpuMs, wallMs };
}
