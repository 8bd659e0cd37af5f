// What the tests of sealed copies and stamped PDFs share: poppler's and qpdf's verdicts on bytes, the
// words pdftotext finds with their boxes, a seal identity without a database, and a synthetic
// TSealInput to build a copy from (lib/services/seal/build-sealed-pdf.ts).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, StandardFonts, degrees } from "pdf-lib";

import type { Tx } from "@/lib/db";
import { renderDocument } from "@/lib/domain/contract-document";
import type { TSealInput, TSealParticipant } from "@/lib/services/seal/build-sealed-pdf";

/** Runs a tool on `bytes` (written to a temporary file), its output and errors together. */
export function pdfTool(bytes: Uint8Array, cmd: string, args: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "pdf-tool-"));
  const file = path.join(dir, "doc.pdf");
  writeFileSync(file, bytes);
  try {
    return execFileSync(cmd, [...args.map((a) => (a === "FILE" ? file : a))], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ""}${e.stderr ?? ""}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** pdftotext's text of each page (`-layout` when asked), pages from 1 (index 0 unused). */
export function pageTexts(bytes: Uint8Array, { layout = false } = {}): string[] {
  return ["", ...pdfTool(bytes, "pdftotext", [...(layout ? ["-layout"] : []), "FILE", "-"]).split("\f")];
}

export interface TWord {
  page: number;
  left: number;
  top: number;
  width: number;
  height: number;
  text: string;
}

/** Every word pdftotext finds, its box in points from the visible page's top left corner as shown. */
export function pdfWords(bytes: Uint8Array): TWord[] {
  return pdfTool(bytes, "pdftotext", ["-tsv", "-cropbox", "FILE", "-"])
    .split("\n")
    .slice(1)
    .map((line) => line.split("\t"))
    .filter((cols) => cols[0] === "5" && cols.length >= 12)
    .map((cols) => ({ page: Number(cols[1]), left: Number(cols[6]), top: Number(cols[7]), width: Number(cols[8]), height: Number(cols[9]), text: cols.slice(11).join("\t") }));
}

/** The seal's self-signed identity as the product makes it, kept in a stand-in for app_settings instead of a database. */
export { benchSealIdentity as sealIdentityWithoutDatabase } from "@/bench/sealed-upload-pdf";

export interface TUploadPage {
  /** Points, before the turn. */
  size?: [number, number];
  rotate?: 0 | 90 | 180 | 270;
  /** A MediaBox not at the origin: [x, y, width, height]. */
  mediaBox?: [number, number, number, number];
  cropBox?: [number, number, number, number];
  lines: string[];
}

/**
 * A PDF as another program would have made it, with the pages asked for: its text in Helvetica (not
 * embedded), or (`embedded`, as an upload must be) in DejaVu Sans Bold embedded as a subset.
 */
export async function makeUploadedPdf(pages: readonly TUploadPage[], { title = "Uploaded original", embedded = false } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setProducer("Some word processor");
  doc.registerFontkit(fontkit);
  const font = embedded ? await doc.embedFont(readFileSync(path.join(process.cwd(), "assets/fonts/DejaVuSans-Bold.ttf")), { subset: true }) : await doc.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const page = doc.addPage(spec.size ?? [595.28, 841.89]);
    if (spec.mediaBox) page.setMediaBox(...spec.mediaBox);
    if (spec.cropBox) page.setCropBox(...spec.cropBox);
    if (spec.rotate) page.setRotation(degrees(spec.rotate));
    const box = page.getCropBox();
    spec.lines.forEach((line, i) => page.drawText(line, { x: box.x + 50, y: box.y + box.height - 60 - i * 16, size: 11, font }));
  }
  return doc.save();
}

const signatory = (id: number, name: string, party: string, signedAt: Date, extra: Partial<TSealParticipant> = {}): TSealParticipant => ({
  id,
  name,
  title: "",
  email: `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@example.org`,
  party,
  myParty: false,
  signatory: true,
  organizer: false,
  signState: "signed",
  signStateUpdatedAt: signedAt,
  signedName: name,
  signMethod: "standard_esign",
  twoStepMethod: "none",
  decidedIp: "203.0.113.7",
  decidedUserAgent: "TestBrowser/1.0",
  ...extra,
});

/** A signed contract's seal input: an organizer, two signatories (ids 2 and 3), `events` audit events a minute apart. */
export function syntheticSealInput({ events = 12, upload = null, attachments = [] }: Partial<Pick<TSealInput, "upload" | "attachments">> & { events?: number } = {}): TSealInput {
  const completedAt = new Date("2026-11-28T10:15:42Z");
  const document = renderDocument({
    name: "Leveransavtal",
    body: { sections: [{ heading: "Avtal", text: "Texten." }] },
    dataFields: [],
    parties: [],
  });
  const participants: TSealParticipant[] = [
    { ...signatory(1, "Olga Owner", "Acme Nordic AB", completedAt), myParty: true, signatory: false, organizer: true, signState: "undecided", signStateUpdatedAt: null, signedName: "" },
    signatory(2, "Åsa Öberg", "Fjord Shipping AS", new Date("2026-11-27T09:05:00Z")),
    signatory(3, "Bjørn Ærø", "Bjørn Ærø", completedAt),
  ];
  const start = completedAt.getTime() - events * 60_000;
  return {
    contract: { id: 4711, name: "Leveransavtal", workspaceId: 1, workspaceName: "Nordic Trade", completedAt },
    document,
    upload,
    participants,
    attachments,
    events: Array.from({ length: events }, (_, i) => ({
      createdAt: new Date(start + i * 60_000),
      action: i === 0 ? "contract.create" : i === events - 1 ? "contract.sign" : `participant.update_${i}`,
      actorName: i % 3 === 0 ? null : "Olga Owner",
      via: i % 3 === 0 ? "system" : "session",
      chainSeq: i + 1,
    })),
    chain: { intact: true, events, lastHash: "ab".repeat(32), brokenAt: null },
    recipients: [],
  };
}
