// The contract page's document and files (docs/api.md "Documents and files"), under the contract's key so a change
// of data fields or parties refreshes the text too.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import { methodOf, pathOf, queryString, v1Queries } from "@/lib/client/v1";
import type { TContractDocument, TContractFile, TContractFileList } from "@/lib/schemas/document";

export const documentQuery = (contractId: number) =>
  queryOptions({
    queryKey: [...v1Queries.contract(contractId).queryKey, "document"],
    queryFn: ({ signal }) => fetchJson<TContractDocument>(pathOf("getContractDocument", { contract_id: contractId }), { signal }),
  });

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
