// The wizard's reads and its one write, on the same /v1 routes external systems use.

import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import { listAll, listTemplates, methodOf, pathOf } from "@/lib/client/v1";
import type { TContract, TCreateContractRequest } from "@/lib/schemas/contract";
import type { TContractFile } from "@/lib/schemas/document";
import type { TTemplate } from "@/lib/schemas/template";
import type { TWorkspace } from "@/lib/schemas/workspace";

/** Every template usable in the workspace (normally a handful; all pages, should there be more). */
export const workspaceTemplatesQuery = (workspaceId: number | undefined) =>
  queryOptions({
    queryKey: ["v1", "templates", "all", { workspace_id: workspaceId }],
    queryFn: ({ signal }): Promise<TTemplate[]> =>
      listAll((page, options) => listTemplates({ ...page, workspace_id: workspaceId }, options), { signal }),
    enabled: workspaceId !== undefined,
  });

/** The workspaces where the user may create contracts: the API says so per workspace. */
export const creatableWorkspaces = (workspaces: TWorkspace[]) => workspaces.filter((workspace) => workspace._permissions["contract:create"]);

export const createContract = (request: TCreateContractRequest) =>
  fetchJson<TContract>(pathOf("createContract", {}), { method: methodOf("createContract"), body: JSON.stringify(request) });

/**
 * Uploads `file` as a draft's document (`upload_as=expanded_pdf`, in place of the template's text;
 * an earlier upload is replaced): the wizard's optional PDF, and the contract page's upload.
 */
export function uploadContractPdf(contractId: number, file: File) {
  const form = new FormData();
  form.set("upload_as", "expanded_pdf");
  form.set("file", file);
  return fetchJson<TContractFile>(pathOf("uploadContractFile", { contract_id: contractId }), { method: methodOf("uploadContractFile"), body: form });
}
