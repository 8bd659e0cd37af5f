// The signing page's text and files, read through the participant's link (docs/documents.md).
import type { PrismaClient } from "@/lib/db";
import type { TSigningPageView } from "@/lib/schemas/signing";
import { loadContractDocument } from "@/lib/services/contracts/load-contract-document";

export async function signingDocument(prisma: PrismaClient, contractId: number, token: string): Promise<Pick<TSigningPageView, "document" | "files">> {
  const loaded = await loadContractDocument(prisma, contractId);
  const base = `/api/sign/${encodeURIComponent(token)}/files`;
  const files = [
    ...(loaded.pdfFileId === null ? [] : [{ id: loaded.pdfFileId, type: "contract", name: `${loaded.document.title}.pdf`, size: null }]),
    ...loaded.attachments.map((a) => ({ id: a.id, type: "attachment", name: a.name, size: a.size })),
  ];
  return { document: { sections: loaded.document.sections }, files: files.map((f) => ({ ...f, href: `${base}/${f.id}` })) };
}
