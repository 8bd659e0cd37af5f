import { endpointRoute, handle, readBodyBytes } from "@/lib/api/endpoint";
import { apiError } from "@/lib/api/errors";
import { paginated } from "@/lib/api/pagination";
import { serializeContractFile } from "@/lib/api/serializers";
import { MAX_ATTACHMENT_BYTES, MAX_UPLOADED_PDF_BYTES } from "@/lib/domain/file-content";
import { UPLOAD_MAX_BODY_BYTES } from "@/lib/http/front-door";
import { json } from "@/lib/api/response";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { listContractFiles } from "@/lib/services/files/list-contract-files";
import { uploadAttachment } from "@/lib/services/files/upload-attachment";
import { uploadContractPdf } from "@/lib/services/files/upload-contract-pdf";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listContractFiles, async ({ prisma, actor, params, query, origin }) => {
    const rows = await listContractFiles({ db: prisma, actor, contractId: params.contract_id });
    const start = query.offset;
    const page = query.limit === "all" ? rows.slice(start) : rows.slice(start, start + query.limit);
    return json(paginated({ origin, path: `/v1/contracts/${params.contract_id}/files`, ...query, count: rows.length, data: page.map((row) => serializeContractFile(row, { origin })) }));
  }),
  // multipart/form-data: `upload_as` (`attachment` or `expanded_pdf`) and `file`. The body is read
  // with a bound (the front door lets this route's bodies up to UPLOAD_MAX_BODY_BYTES through), then parsed.
  handle(ENDPOINTS.uploadContractFile, async ({ prisma, actor, params, req, origin, requestId }) => {
    const type = req.headers.get("content-type") ?? "";
    if (!/^multipart\/form-data\s*;/i.test(type)) throw apiError("file_type_not_accepted", "Send the file as multipart/form-data with the fields upload_as (attachment or expanded_pdf) and file.");
    let bytes: Uint8Array;
    try {
      bytes = await readBodyBytes(req, UPLOAD_MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof Error && "key" in error && error.key === "body_too_large") {
        throw apiError("file_too_large", `An attachment may be at most ${MAX_ATTACHMENT_BYTES} bytes, a contract's PDF at most ${MAX_UPLOADED_PDF_BYTES}.`);
      }
      throw error;
    }
    let form: FormData;
    try {
      form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } }).formData();
    } catch {
      throw apiError("file_unreadable", "The multipart/form-data body cannot be read.");
    }
    const file = form.get("file");
    const uploadAs = form.get("upload_as");
    if ((uploadAs !== "attachment" && uploadAs !== "expanded_pdf") || !(file instanceof Blob)) {
      throw apiError("validation_failed", "upload_as must be attachment or expanded_pdf, and file a file.", {
        parameterProblems: {
          ...(uploadAs !== "attachment" && uploadAs !== "expanded_pdf" ? { upload_as: ["must be attachment or expanded_pdf"] } : {}),
          ...(!(file instanceof Blob) ? { file: ["is required: the file's bytes as a form-data file part"] } : {}),
        },
      });
    }
    const upload = {
      db: prisma,
      actor,
      contractId: params.contract_id,
      name: file instanceof File ? file.name : uploadAs,
      bytes: new Uint8Array(await file.arrayBuffer()),
      requestId,
    };
    const row = uploadAs === "expanded_pdf" ? await uploadContractPdf(upload) : await uploadAttachment(upload);
    return json(serializeContractFile(row, { origin }));
  }),
);
