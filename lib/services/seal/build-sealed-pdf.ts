// The sealed copy's bytes: the contract as signed (lib/pdf/contract-pdf.ts, final), then the
// completion certificate written on pages after it, then the seal over the whole file. The
// certificate is added before signing: anything added after would break the signature.
import { createHash } from "node:crypto";

import { PDFDocument } from "pdf-lib";

import type { TDocument } from "@/lib/domain/contract-document";
import { renderContractPdf } from "@/lib/pdf/contract-pdf";
import { PdfLayout } from "@/lib/pdf/layout";

import type { TChainVerdict } from "@/lib/services/audit/check-contract-chain";
import type { TSealIdentity } from "./seal-identity";
import { sealPdf } from "./sign-pdf";

export interface TSealParticipant {
  id: number;
  name: string;
  title: string;
  email: string;
  party: string;
  myParty: boolean;
  signatory: boolean;
  organizer: boolean;
  signState: string;
  signStateUpdatedAt: Date | null;
  signedName: string;
  signMethod: string;
  twoStepMethod: string;
  decidedIp: string;
  decidedUserAgent: string;
}

export interface TSealInput {
  contract: { id: number; name: string; workspaceId: number; workspaceName: string; completedAt: Date };
  /** The text as signed (lib/services/contracts/load-contract-document.ts). */
  document: TDocument;
  participants: TSealParticipant[];
  attachments: { name: string; sha256: string | null }[];
  events: { createdAt: Date; action: string; actorName: string | null; via: string; chainSeq: number | null }[];
  chain: TChainVerdict;
  recipients: { participantId: number | null; name: string; email: string }[];
}

const utc = (d: Date | null) => (d ? `${d.toISOString().replace("T", " ").slice(0, 19)} UTC` : "—");

function roleOf(p: TSealParticipant): string {
  const roles = [p.signatory ? "signatory" : "receives a copy"];
  if (p.organizer) roles.push("organizer");
  return roles.join(", ");
}

function actorOf(e: TSealInput["events"][number]): string {
  if (e.actorName) return e.actorName;
  return e.via === "system" ? "the service" : e.via === "api_token" ? "an API token" : "—";
}

/** The contract PDF (final) and its SHA-256: what the certificate calls "the document". */
async function renderFinalDocument(input: TSealInput): Promise<{ bytes: Uint8Array; sha256: string }> {
  const bytes = await renderContractPdf(input.document, { contractId: input.contract.id, draft: false, attachments: input.attachments, creationDate: input.contract.completedAt });
  return { bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** Document, certificate and seal, signed at `sealedAt`. */
export async function buildSealedPdf(input: TSealInput, identity: TSealIdentity, sealedAt: Date): Promise<Buffer> {
  const { contract } = input;
  const final = await renderFinalDocument(input);
  const doc = await PDFDocument.load(final.bytes);
  doc.setModificationDate(sealedAt);
  const layout = await PdfLayout.create({ footer: `Completion certificate · contract ${contract.id}` }, doc);
  layout.title("Completion certificate");
  layout.rows([
    ["Contract", `${contract.name} (id ${contract.id})`],
    ["Workspace", contract.workspaceName],
    ["Completed", utc(contract.completedAt)],
    ["Sealed", utc(sealedAt)],
    ["Document SHA-256", final.sha256],
    ["Document pages", String(doc.getPageCount() - layout.pageCount)],
  ]);
  layout.paragraph([{ text: "The document SHA-256 is that of the contract PDF as completed (the pages before this certificate), the contract file this service serves for the signed contract."}], { size: 8 });

  // The duration settings the signatories agreed to (docs/lifecycle.md), as the document states them.
  if (input.document.term.length > 0) {
    layout.heading("Term");
    layout.rows(input.document.term.map((row) => [row.label, row.value] as [string, string]));
  }

  layout.heading("Attachments");
  if (input.attachments.length === 0) layout.paragraph([{ text: "None." }]);
  else layout.rows(input.attachments.map((a) => [a.name, `SHA-256 ${a.sha256 ?? "—"}`] as [string, string]));

  layout.heading("Participants");
  for (const p of input.participants) {
    layout.heading(`${p.name}${p.title ? `, ${p.title}` : ""}`, 2);
    layout.rows([
      ["E-mail", p.email || "—"],
      ["Party", p.party],
      ["Role", roleOf(p)],
      ["Decision", p.signatory ? (p.signState === "undecided" ? "none" : `${p.signState} ${utc(p.signStateUpdatedAt)}`) : "—"],
      ...(p.signState === "signed" ? [["Name typed to sign", p.signedName || "—"] as [string, string]] : []),
      ["IP address", p.decidedIp || "—"],
      ["User agent", p.decidedUserAgent || "—"],
      ["Sign method", p.signMethod],
      ["Two-step method", p.twoStepMethod],
    ]);
  }

  layout.heading("Event timeline");
  layout.rows(input.events.map((e) => [utc(e.createdAt), `${e.action} — ${actorOf(e)}`] as [string, string]), { labelWidth: 130 });

  layout.heading("Audit chain");
  layout.rows([
    ["Events", String(input.chain.events)],
    ["Chain at sealing", input.chain.intact ? "intact" : `broken at event ${input.chain.brokenAt?.position}`],
    ["Last hash", input.chain.lastHash ?? "—"],
  ]);

  layout.heading("Seal");
  layout.rows([
    ["Signed by", identity.subject],
    ["Certificate SHA-256", identity.fingerprint],
    ["Certificate", identity.selfSigned ? "self-signed by this deployment" : "from SEAL_P12"],
  ]);
  layout.paragraph([{ text: "This file is sealed with a PAdES signature over all of its bytes. Any change breaks it; upload the file to this service's /verify page to check it." }], { size: 8 });
  await layout.finish({ save: false });
  return sealPdf(doc, identity, { reason: `Completion of contract ${contract.id}`, location: contract.workspaceName, signingTime: sealedAt });
}
