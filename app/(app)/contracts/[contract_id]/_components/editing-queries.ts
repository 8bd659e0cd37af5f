// The contract page's structural changes of a draft (docs/web-app.md "Changing a draft"):
// adding and removing counterparties and participants, and setting a data field's value.

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import { methodOf, pathOf, v1Queries } from "@/lib/client/v1";
import type { TDataField, TDataFieldList } from "@/lib/schemas/data-field";
import type { TCreateParticipantRequest, TParticipant } from "@/lib/schemas/participant";
import type { TCreatePartyRequest, TParty } from "@/lib/schemas/party";

/**
 * Everything the page reads of the contract lives under its key (the contract, its readiness, data
 * fields and activity), so one invalidation after a change refreshes all of them.
 */
function useRefreshContract(contractId: number) {
  const queryClient = useQueryClient();
  // Not awaited by the mutation: the caller's own onSuccess (closing a form or dialog) runs at once,
  // before the refetch takes the removed item's component (and that callback) away.
  return () => {
    void queryClient.invalidateQueries({ queryKey: v1Queries.contract(contractId).queryKey });
  };
}

export function useAddParty(contractId: number) {
  const refresh = useRefreshContract(contractId);
  return useMutation({
    mutationFn: (party: TCreatePartyRequest) =>
      fetchJson<TParty>(pathOf("createParty", { contract_id: contractId }), { method: methodOf("createParty"), body: JSON.stringify(party) }),
    onSuccess: refresh,
  });
}

export function useDeleteParty(contractId: number, partyId: number) {
  const refresh = useRefreshContract(contractId);
  return useMutation({
    mutationFn: () =>
      fetchJson<undefined>(pathOf("deleteParty", { contract_id: contractId, party_id: partyId }), { method: methodOf("deleteParty") }),
    onSuccess: refresh,
  });
}

export function useAddParticipant(contractId: number, partyId: number) {
  const refresh = useRefreshContract(contractId);
  return useMutation({
    mutationFn: (participant: TCreateParticipantRequest) =>
      fetchJson<TParticipant>(pathOf("createParticipant", { contract_id: contractId, party_id: partyId }), {
        method: methodOf("createParticipant"),
        body: JSON.stringify(participant),
      }),
    onSuccess: refresh,
  });
}

export function useDeleteParticipant(contractId: number, partyId: number, participantId: number) {
  const refresh = useRefreshContract(contractId);
  return useMutation({
    mutationFn: () =>
      fetchJson<undefined>(pathOf("deleteParticipant", { contract_id: contractId, party_id: partyId, participant_id: participantId }), {
        method: methodOf("deleteParticipant"),
      }),
    onSuccess: refresh,
  });
}

/** The data fields' key prefix (every page of them), under the contract's key. */
const dataFieldsKey = (contractId: number) => [...v1Queries.contract(contractId).queryKey, "data_fields"] as const;

/** Each cached page of data fields with `id`'s value replaced. */
function withValue(list: TDataFieldList | undefined, id: number, value: string): TDataFieldList | undefined {
  return list && { ...list, data: list.data.map((field) => (field.id === id ? { ...field, value } : field)) };
}

/**
 * Sets a data field's value optimistically: every cached page shows it at once; on failure the old
 * value comes back. Afterwards the contract refreshes (its `updated_time`, readiness and activity).
 */
export function useUpdateDataField(contractId: number) {
  const queryClient = useQueryClient();
  const refresh = useRefreshContract(contractId);
  return useMutation({
    mutationFn: ({ field, value }: { field: TDataField; value: string }) =>
      fetchJson<TDataField>(pathOf("updateDataField", { contract_id: contractId, data_field_id: field.id }), {
        method: methodOf("updateDataField"),
        body: JSON.stringify({ value }),
      }),
    onMutate: async ({ field, value }) => {
      await queryClient.cancelQueries({ queryKey: dataFieldsKey(contractId) });
      queryClient.setQueriesData<TDataFieldList>({ queryKey: dataFieldsKey(contractId) }, (list) => withValue(list, field.id, value));
    },
    onError: (_error, { field }) => {
      queryClient.setQueriesData<TDataFieldList>({ queryKey: dataFieldsKey(contractId) }, (list) => withValue(list, field.id, field.value));
    },
    onSuccess: (saved) => {
      queryClient.setQueriesData<TDataFieldList>({ queryKey: dataFieldsKey(contractId) }, (list) => withValue(list, saved.id, saved.value));
    },
    onSettled: refresh,
  });
}
