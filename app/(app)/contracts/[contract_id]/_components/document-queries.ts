// The contract page's document and files (docs/documents.md), under the contract's key so a change
// of data fields or parties refreshes the text too.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { fetchJson, fetchTaggedJson, RequestError } from "@/lib/client/fetch-json";
import { methodOf, pathOf, queryString, v1Queries } from "@/lib/client/v1";
import type { TBody } from "@/lib/domain/contract-document";
import type { TContractDocument, TContractFile, TContractFileList } from "@/lib/schemas/document";

/** The document (`data`) and the `ETag` of its text, which a save names in `If-Match`. */
export const documentQuery = (contractId: number) =>
  queryOptions({
    queryKey: [...v1Queries.contract(contractId).queryKey, "document"],
    queryFn: ({ signal }) => fetchTaggedJson<TContractDocument>(pathOf("getContractDocument", { contract_id: contractId }), { signal }),
  });

/**
 * Replaces a draft's text with the route external systems use (`PUT …/document`), naming in
 * `If-Match` the version the editor opened (`etag`), then the one it saved: a change someone else
 * saved meanwhile is not overwritten (412, said in one sentence; the typed text stays in the form).
 * A published contract's answer is 409 `contract_text_frozen`. The answer is the new document; the
 * rest of the contract's reads (readiness, Activity) refresh.
 */
export function useUpdateContractBody(contractId: number, etag: string | null) {
  const queryClient = useQueryClient();
  const version = useRef(etag);
  return useMutation({
    mutationFn: async (body: TBody) => {
      try {
        return await fetchTaggedJson<TContractDocument>(pathOf("updateContractBody", { contract_id: contractId }), {
          method: methodOf("updateContractBody"),
          headers: version.current ? { "if-match": version.current } : {},
          body: JSON.stringify({ body }),
        });
      } catch (error) {
        if (error instanceof RequestError && error.status === 412) {
          throw new RequestError(412, "Someone else changed this text since you opened it; reload the page to see their version.", {}, error.errorCode);
        }
        throw error;
      }
    },
    onSuccess: (saved) => {
      version.current = saved.etag;
      queryClient.setQueryData(documentQuery(contractId).queryKey, saved);
    },
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
