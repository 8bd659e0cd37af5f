// The contract page's document and files (docs/api.md "Documents and files"), under the contract's key so a change
// of data fields or parties refreshes the text too.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import { methodOf, pathOf, queryString, v1Queries } from "@/lib/client/v1";
import type { TBody } from "@/lib/domain/contract-document";
import type { TDataFieldList } from "@/lib/schemas/data-field";
import type { TContractDocument, TContractFile, TContractFileList } from "@/lib/schemas/document";

export const documentQuery = (contractId: number) =>
  queryOptions({
    queryKey: [...v1Queries.contract(contractId).queryKey, "document"],
    queryFn: ({ signal }) => fetchJson<TContractDocument>(pathOf("getContractDocument", { contract_id: contractId }), { signal }),
  });

/** Every data field (the text may name any of them): what the text editor checks and previews with. */
export const allDataFieldsQuery = (contractId: number) =>
  queryOptions({
    queryKey: [...v1Queries.contract(contractId).queryKey, "data_fields", "all"],
    queryFn: ({ signal }) => fetchJson<TDataFieldList>(`${pathOf("listDataFields", { contract_id: contractId })}${queryString({ limit: "all" })}`, { signal }),
  });

/**
 * Replaces a draft's text with the route external systems use (`PUT …/document`; no version to
 * match: the last save wins, and a published contract's answer is 409 `contract_text_frozen`). The
 * answer is the new document; the rest of the contract's reads (readiness, Activity) refresh.
 */
export function useUpdateContractBody(contractId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TBody) =>
      fetchJson<TContractDocument>(pathOf("updateContractBody", { contract_id: contractId }), { method: methodOf("updateContractBody"), body: JSON.stringify({ body }) }),
    onSuccess: (saved) => queryClient.setQueryData(documentQuery(contractId).queryKey, saved),
    onSettled: () => queryClient.invalidateQueries({ queryKey: v1Queries.contract(contractId).queryKey }),
  });
}

export const filesQuery = (contractId: number) =>
  queryOptions({
    queryKey: [...v1Queries.contract(contractId).queryKey, "files"],
    queryFn: ({ signal }) => fetchJson<TContractFileList>(`${pathOf("listContractFiles", { contract_id: contractId })}${queryString({ limit: "all" })}`, { signal }),
  });

export function useUploadAttachment(contractId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.set("upload_as", "attachment");
      form.set("file", file);
      return fetchJson<TContractFile>(pathOf("uploadContractFile", { contract_id: contractId }), { method: methodOf("uploadContractFile"), body: form });
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: v1Queries.contract(contractId).queryKey }),
  });
}

export function useDeleteAttachment(contractId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fileId: number) =>
      fetchJson<undefined>(pathOf("deleteContractFile", { contract_id: contractId, file_id: fileId }), { method: methodOf("deleteContractFile") }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: v1Queries.contract(contractId).queryKey }),
  });
}
