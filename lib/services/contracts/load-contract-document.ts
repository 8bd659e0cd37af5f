// The contract as a document (docs/documents.md): read once here for the contract page, the
// signing page, the PDF and the sealed copy.
import { CONTRACT_FIELDS } from "@/lib/schemas/contract";
import { sectionSelectOf, sectionValuesOf } from "@/lib/schemas/field-table";
import type { PrismaClient, Tx } from "@/lib/db";
import { renderDocument, type TBody, type TDocument } from "@/lib/domain/contract-document";
import type { TContractState } from "@/lib/domain/enums";
import type { TTerm } from "@/lib/domain/lifecycle";
import { contractNotFound } from "@/lib/services/not-found";

export interface TLoadedDocument {
  /** `stateUpdatedAt`: for a signed contract, when it was completed (the final PDF's creation date). */
  contract: { id: number; name: string; state: TContractState; workspaceId: number; stateUpdatedAt: Date };
  body: TBody;
  document: TDocument;
  /** Attachments in upload order, for the PDF's list and the certificate. */
  attachments: { id: number; name: string; contentType: string; size: number | null; sha256: string | null }[];
  /** The id of the `contract` file (the PDF). */
  pdfFileId: number | null;
  /** The PDF staff uploaded as the document (docs/documents.md "Uploaded PDF"), if they did. */
  uploadedPdf: { id: number; name: string; size: number; sha256: string; pages: number } | null;
}

/** The contract's document, whoever asks (the caller has checked who may see it). */
export async function loadContractDocument(db: PrismaClient | Tx, contractId: number): Promise<TLoadedDocument> {
  const row = await db.contract.findUnique({
    where: { id: contractId },
    select: {
      id: true,
      name: true,
      state: true,
      workspaceId: true,
      stateUpdatedAt: true,
      body: true,
      ...sectionSelectOf(CONTRACT_FIELDS, "lifecycle_settings"),
      dataFields: { select: { customId: true, name: true, value: true }, orderBy: { id: "asc" } },
      parties: {
        orderBy: { id: "asc" },
        select: {
          name: true,
          type: true,
          identificationNumber: true,
          countryCode: true,
          myParty: true,
          participants: { orderBy: { id: "asc" }, select: { name: true, title: true, email: true, signatory: true, signState: true, signStateUpdatedAt: true } },
        },
      },
      files: { orderBy: { id: "asc" }, select: { id: true, type: true, name: true, contentType: true, size: true, sha256: true, storageKey: true, pages: true } },
    },
  });
  if (!row) throw contractNotFound(contractId);
  const body = row.body as unknown as TBody;
  const pdf = row.files.find((f) => f.type === "contract");
  // The owner's side first, as the contract lists its parties.
  const parties = [...row.parties.filter((p) => p.myParty), ...row.parties.filter((p) => !p.myParty)];
  return {
    contract: { id: row.id, name: row.name, state: row.state, workspaceId: row.workspaceId, stateUpdatedAt: row.stateUpdatedAt },
    body,
    document: renderDocument({ name: row.name, body, dataFields: row.dataFields, parties, term: sectionValuesOf(CONTRACT_FIELDS, "lifecycle_settings", row) as unknown as TTerm }),
    attachments: row.files.filter((f) => f.type === "attachment").map(({ id, name, contentType, size, sha256 }) => ({ id, name, contentType, size, sha256 })),
    pdfFileId: pdf?.id ?? null,
    uploadedPdf: pdf?.storageKey && pdf.size !== null && pdf.sha256 !== null && pdf.pages !== null ? { id: pdf.id, name: pdf.name, size: pdf.size, sha256: pdf.sha256, pages: pdf.pages } : null,
  };
}

