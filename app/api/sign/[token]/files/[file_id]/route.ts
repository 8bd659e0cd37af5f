import { otherMethods, withApi } from "@/lib/api/endpoint";
import { apiError } from "@/lib/api/errors";
import { openFileOfContract } from "@/lib/services/files/open-file-of-contract";
import { openSigningLink } from "@/lib/services/signing/open-signing-link";

// A participant downloads the contract PDF or an attachment through their link (the link is the
// credential); the file must belong to the link's contract.
const route = "/api/sign/{token}/files/{file_id}";

export const GET = withApi(
  async ({ prisma, params }) => {
    const fileId = Number(params.file_id);
    if (!Number.isInteger(fileId) || fileId < 1 || fileId > 2_147_483_647) throw apiError("resource_not_found", "No such file.");
    const view = await openSigningLink({ db: prisma!, token: String(params.token ?? "") });
    const content = await openFileOfContract(prisma!, view.contract.id, fileId);
    const ascii = content.fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
    return new Response(content.body, {
      headers: {
        "Content-Type": content.contentType,
        "Content-Length": String(content.size),
        "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(content.fileName)}`,
        "Cache-Control": "private, no-store",
      },
    });
  },
  { route, auth: false },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
