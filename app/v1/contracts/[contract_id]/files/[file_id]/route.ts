import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { serializeContractFile } from "@/lib/api/serializers";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { deleteAttachment } from "@/lib/services/files/delete-attachment";
import { getContractFile } from "@/lib/services/files/get-contract-file";
import { openContractFile } from "@/lib/services/files/open-contract-file";

/** `attachment; filename="…"; filename*=UTF-8''…`: an ASCII fallback and the exact name (RFC 6266). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getContractFile, async ({ prisma, actor, params, query, origin }) => {
    const ids = { db: prisma, actor, contractId: params.contract_id, fileId: params.file_id };
    if (query.download !== "true") return json(serializeContractFile(await getContractFile(ids), { origin }));
    const content = await openContractFile(ids);
    return new Response(content.body, {
      headers: {
        "Content-Type": content.contentType,
        "Content-Length": String(content.size),
        "Content-Disposition": contentDisposition(content.fileName),
        // Shown as a download, never rendered in this origin.
        "Cache-Control": "private, no-store",
      },
    });
  }),
  handle(ENDPOINTS.deleteContractFile, async ({ prisma, actor, params, requestId }) => {
    await deleteAttachment({ db: prisma, actor, contractId: params.contract_id, fileId: params.file_id, requestId });
    return new Response(null, { status: 204 });
  }),
);
