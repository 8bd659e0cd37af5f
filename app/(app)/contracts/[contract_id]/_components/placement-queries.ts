// The boxes on a draft's uploaded PDF (`…/placements`) and the upload itself, under the contract's
// key: a box placed or removed re-checks the publishing readiness (a signatory needs a signature box).
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import { methodOf, pathOf, v1Queries } from "@/lib/client/v1";
import type { TCreatePlacementRequest, TPlacement, TPlacementList, TUpdatePlacementRequest } from "@/lib/schemas/placement";

export type { TPlacement };
import { uploadContractPdf } from "../../new/_components/wizard-queries";


export const placementsQuery = (contractId: number) =>
  queryOptions({
    queryKey: [...v1Queries.contract(contractId).queryKey, "placements"],
    queryFn: ({ signal }) => fetchJson<TPlacementList>(pathOf("listPlacements", { contract_id: contractId }), { signal }),
  });

export function useUploadContractPdf(contractId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadContractPdf(contractId, file),
    onSettled: () => queryClient.invalidateQueries({ queryKey: v1Queries.contract(contractId).queryKey }),
  });
}

/**
 * Removes the uploaded PDF (`DELETE …/files/{file_id}` on the `contract` file) and every box on it:
 * the template's text is the document again. Done once the contract's reads (the document first)
 * have been fetched again, so the text is there when the confirmation closes.
 */
export function useRemoveContractPdf(contractId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fileId: number) =>
      fetchJson<undefined>(pathOf("deleteContractFile", { contract_id: contractId, file_id: fileId }), { method: methodOf("deleteContractFile") }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: v1Queries.contract(contractId).queryKey }),
  });
}

/**
 * Places, moves (or resizes: `move` takes any of x, y, width, height) and removes boxes. Each change
 * shows at once in the list (a moved or resized box stays as it was left, a removed one goes), goes back if the API refuses it, and refreshes the contract's
 * reads afterwards (readiness, Activity).
 */
export function usePlacementChanges(contractId: number) {
  const queryClient = useQueryClient();
  const key = placementsQuery(contractId).queryKey;
  const settle = () => queryClient.invalidateQueries({ queryKey: v1Queries.contract(contractId).queryKey });

  /** Applies `change` to the cached list at once; the returned function puts the list back. */
  async function optimistic(change: (list: TPlacement[]) => TPlacement[]) {
    await queryClient.cancelQueries({ queryKey: key });
    const before = queryClient.getQueryData(key);
    if (before) queryClient.setQueryData(key, { ...before, data: change(before.data) });
    return { before };
  }
  const rollback = (_: unknown, __: unknown, context: { before: TPlacementList | undefined } | undefined) => {
    if (context?.before) queryClient.setQueryData(key, context.before);
  };

  const create = useMutation({
    mutationFn: (body: TCreatePlacementRequest) => fetchJson<TPlacement>(pathOf("createPlacement", { contract_id: contractId }), { method: methodOf("createPlacement"), body: JSON.stringify(body) }),
    onSuccess: (placement) => {
      const list = queryClient.getQueryData(key);
      if (list) queryClient.setQueryData(key, { count: list.count + 1, data: [...list.data, placement] });
    },
    onSettled: settle,
  });

  const move = useMutation({
    mutationFn: ({ id, ...body }: TUpdatePlacementRequest & { id: number }) =>
      fetchJson<TPlacement>(pathOf("updatePlacement", { contract_id: contractId, placement_id: id }), { method: methodOf("updatePlacement"), body: JSON.stringify(body) }),
    onMutate: ({ id, ...body }) => optimistic((list) => list.map((p) => (p.id === id ? { ...p, ...body } : p))),
    onError: rollback,
    onSettled: settle,
  });

  const remove = useMutation({
    mutationFn: (id: number) => fetchJson<undefined>(pathOf("deletePlacement", { contract_id: contractId, placement_id: id }), { method: methodOf("deletePlacement") }),
    onMutate: (id) => optimistic((list) => list.filter((p) => p.id !== id)),
    onError: rollback,
    onSettled: settle,
  });

  return { create, move, remove };
}
