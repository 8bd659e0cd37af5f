import { absoluteUrl } from "@/lib/http/links";
import type { TContractDocument, TContractFile } from "@/lib/schemas/document";
import type { TLoadedDocument } from "@/lib/services/contracts/load-contract-document";
import type { TContractFileRow } from "@/lib/services/files/contract-file-row";
import { ATTACHMENT_TYPES } from "@/lib/domain/file-content";
import { isoTime } from "./time";

export function serializeContractDocument({ contract, body, document, pdfFileId, uploadedPdf }: TLoadedDocument, { origin }: { origin: string }): TContractDocument {
  return {
    title: document.title,
    sections: document.sections,
    parties: document.parties,
    signatories: document.signatories.map((s) => ({ name: s.name, title: s.title, party: s.party, sign_state: s.signState, signed_time: s.signedAt })),
    missing_data_fields: document.missingFields.map((f) => ({ custom_id: f.customId, name: f.name })),
    body,
    frozen: contract.state !== "draft",
    uploaded_pdf: uploadedPdf && { file_id: uploadedPdf.id, name: uploadedPdf.name, size: uploadedPdf.size, sha256: uploadedPdf.sha256, pages: uploadedPdf.pages, href: absoluteUrl(origin, `/v1/contracts/${contract.id}/files/${uploadedPdf.id}`, { download: "true" }) },
    _links: {
      self: { href: absoluteUrl(origin, `/v1/contracts/${contract.id}/document`) },
      pdf: { href: pdfFileId === null ? null : absoluteUrl(origin, `/v1/contracts/${contract.id}/files/${pdfFileId}`, { download: "true" }) },
    },
  } satisfies TContractDocument;
}

const extensionOf = (row: TContractFileRow) =>
  ATTACHMENT_TYPES[row.contentType as keyof typeof ATTACHMENT_TYPES]?.extension ?? (row.contentType === "application/pdf" ? "pdf" : "bin");

export function serializeContractFile(row: TContractFileRow, { origin }: { origin: string }): TContractFile {
  const self = `/v1/contracts/${row.contractId}/files/${row.id}`;
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    extension: extensionOf(row),
    content_type: row.contentType,
    size: row.size,
    sha256: row.sha256,
    pages: row.pages,
    created_time: isoTime(row.createdAt),
    _links: { self: { href: absoluteUrl(origin, self) }, download: { href: absoluteUrl(origin, self, { download: "true" }) } },
  } satisfies TContractFile;
}
