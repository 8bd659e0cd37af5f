// The signing page's text and files, read through the participant's link (docs/documents.md).
import type { PrismaClient } from "@/lib/db";
import type { TSigningPageView } from "@/lib/schemas/signing";
import { loadContractDocument } from "@/lib/services/contracts/load-contract-document";

export async function signingDocument(prisma: PrismaClient, contractId: number, token: string, participantId: number): Promise<Pick<TSigningPageView, "document" | "files" | "uploaded_pdf">> {
  const loaded = await loadContractDocument(prisma, contractId);
  const boxes = loaded.uploadedPdf
    ? await prisma.placement.findMany({ where: { contractId }, orderBy: [{ page: "asc" }, { id: "asc" }], select: { page: true, x: true, y: true, width: true, height: true, kind: true, participantId: true } })
    : [];
  const base = `/api/sign/${encodeURIComponent(token)}/files`;
  const files = [
    ...(loaded.pdfFileId === null ? [] : [{ id: loaded.pdfFileId, type: "contract", name: `${loaded.document.title}.pdf`, size: null }]),
    ...loaded.attachments.map((a) => ({ id: a.id, type: "attachment", name: a.name, size: a.size })),
  ];
  return {
    document: { sections: loaded.document.sections },
    files: files.map((f) => ({ ...f, href: `${base}/${f.id}` })),
    uploaded_pdf: loaded.uploadedPdf && {
      href: `${base}/${loaded.uploadedPdf.id}`,
      pages: loaded.uploadedPdf.pages,
      boxes: boxes.map(({ participantId: owner, ...box }) => ({ ...box, mine: owner === participantId })),
    },
  };
}
