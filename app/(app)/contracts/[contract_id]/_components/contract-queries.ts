// The contract page's own reads and writes (the participant PUT, the deletion), on the /v1 routes.

import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { ATTRIBUTE_LABELS } from "@/components/participant-fields/labels";
import { fetchJson, RequestError } from "@/lib/client/fetch-json";
import { asSentence, fieldProblem, labelledProblem } from "@/components/problems";
import { methodOf, pathOf, queryString, v1Queries, type TPageParams } from "@/lib/client/v1";
import type { TAuditEventList } from "@/lib/schemas/audit-event";
import type { TContract } from "@/lib/schemas/contract";
import type { TDataFieldList } from "@/lib/schemas/data-field";
import type { TParticipant, TUpdateParticipantRequest } from "@/lib/schemas/participant";
import { applyChanges } from "./participant-change";

/** Under the contract's own key, so refreshing the contract refreshes its data fields too. */
export const dataFieldsQuery = (contractId: number, page: Required<TPageParams>) =>
  queryOptions({
    queryKey: [...v1Queries.contract(contractId).queryKey, "data_fields", page],
    queryFn: ({ signal }) =>
      fetchJson<TDataFieldList>(`${pathOf("listDataFields", { contract_id: contractId })}${queryString(page)}`, { signal }),
  });

/**
 * Every data field of the contract in one answer (`limit=all`, which the API serves for a contract's
 * own lists): what the text editor checks and previews with, what the placement editor offers, and
 * how the Activity names the field an event is about, however many the contract has.
 */
export const allDataFieldsQuery = (contractId: number) =>
  queryOptions({
    queryKey: [...v1Queries.contract(contractId).queryKey, "data_fields", "all"],
    queryFn: ({ signal }) => fetchJson<TDataFieldList>(`${pathOf("listDataFields", { contract_id: contractId })}${queryString({ limit: "all" })}`, { signal }),
  });

/** How many events the Activity section shows at first, and adds per "Show older". */
export const EVENTS_PAGE_SIZE = 20;

/** The contract's audit trail, newest first, a page at a time; under the contract's key like its data fields. */
export const eventsQuery = (contractId: number) =>
  infiniteQueryOptions({
    queryKey: [...v1Queries.contract(contractId).queryKey, "events", "pages"],
    initialPageParam: 0,
    queryFn: ({ signal, pageParam }) =>
      fetchJson<TAuditEventList>(
        `${pathOf("listContractEvents", { contract_id: contractId })}${queryString({ limit: EVENTS_PAGE_SIZE, offset: pageParam })}`,
        { signal },
      ),
    getNextPageParam: (last, _all, offset) => (last._links.next.href === null ? undefined : offset + EVENTS_PAGE_SIZE),
  });

/** Every page of the audit trail: what a change on this page must refresh. */
export const eventsKey = (contractId: number) => [...v1Queries.contract(contractId).queryKey, "events"] as const;

/**
 * Deletes the contract (`DELETE`, 204). On success its cached reads are dropped (not refetched: they
 * would be 404s) and every contract list refreshes; the caller navigates away.
 */
export function useDeleteContract(contractId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      fetchJson<undefined>(pathOf("deleteContract", { contract_id: contractId }), { method: methodOf("deleteContract") }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: v1Queries.contract(contractId).queryKey });
      void queryClient.invalidateQueries({ queryKey: ["v1", "contracts", "list"] });
    },
  });
}

export type TParticipantUpdate = { partyId: number; participantId: number; changes: TUpdateParticipantRequest };

/** The contract with one participant replaced by `update(participant)`. */
function withParticipant(contract: TContract, participantId: number, update: (p: TParticipant) => TParticipant): TContract {
  return {
    ...contract,
    parties: contract.parties.map((party) =>
      party.type === "company"
        ? { ...party, participants: party.participants.map((p) => (p.id === participantId ? update(p) : p)) }
        : party.participant.id === participantId
          ? { ...party, participant: update(party.participant) }
          : party,
    ),
  };
}

function findParticipant(contract: TContract | undefined, participantId: number): TParticipant | undefined {
  for (const party of contract?.parties ?? []) {
    const people = party.type === "company" ? party.participants : [party.participant];
    const found = people.find((p) => p.id === participantId);
    if (found) return found;
  }
  return undefined;
}

/**
 * Saves a participant change optimistically: the page shows it at once, and on failure exactly the
 * changed attributes get their old values back (a concurrent save of another field stays).
 * Only the changed attributes are sent, so two people editing different fields do not overwrite
 * each other; the server re-checks every rule on the stored row.
 */
export function useUpdateParticipant(contractId: number) {
  const queryClient = useQueryClient();
  const contractKey = v1Queries.contract(contractId).queryKey;
  const mutationKey = ["v1", "contracts", contractId, "participant-update"];
  return useMutation({
    mutationKey,
    mutationFn: ({ partyId, participantId, changes }: TParticipantUpdate) =>
      fetchJson<TParticipant>(pathOf("updateParticipant", { contract_id: contractId, party_id: partyId, participant_id: participantId }), {
        method: methodOf("updateParticipant"),
        body: JSON.stringify(changes),
      }),
    onMutate: async ({ participantId, changes }) => {
      // A refetch landing now would overwrite the optimistic value with the old one.
      await queryClient.cancelQueries({ queryKey: contractKey, exact: true });
      const before = findParticipant(queryClient.getQueryData(contractKey), participantId);
      queryClient.setQueryData(contractKey, (contract) => contract && withParticipant(contract, participantId, (p) => applyChanges(p, changes)));
      return { before };
    },
    onError: (_error, { participantId, changes }, context) => {
      const before = context?.before;
      if (!before) return;
      const restore: TUpdateParticipantRequest = Object.fromEntries(
        Object.keys(changes).map((key) => [key, before[key as keyof TParticipant]]),
      );
      queryClient.setQueryData(contractKey, (contract) => contract && withParticipant(contract, participantId, (p) => applyChanges(p, restore)));
    },
    onSuccess: (saved, { participantId }) => {
      queryClient.setQueryData(contractKey, (contract) => contract && withParticipant(contract, participantId, () => saved));
    },
    onSettled: () => {
      // The contract's own times and states may have moved; refetch once the last save is done.
      if (queryClient.isMutating({ mutationKey }) === 1) void queryClient.invalidateQueries({ queryKey: contractKey, exact: true });
      // Every save (or refusal: nothing is written then, but the trail may have moved meanwhile) shows in the activity.
      void queryClient.invalidateQueries({ queryKey: eventsKey(contractId) });
    },
  });
}

/**
 * The words for a refused save, next to the field: the API's one problem with it, else its first
 * problem named by its field's label, else its detail (components/problems.ts).
 */
export function saveErrorMessage(error: unknown, path: string): string {
  if (!(error instanceof RequestError)) return "The change could not be saved.";
  const own = fieldProblem(error.parameterProblems[path]);
  if (own) return own;
  const [other, messages] = Object.entries(error.parameterProblems)[0] ?? [];
  if (other !== undefined && messages?.[0]) {
    const attribute = other.split(".").at(-1)!;
    return labelledProblem(ATTRIBUTE_LABELS[attribute] ?? "This", messages[0]);
  }
  return asSentence(error.message);
}
