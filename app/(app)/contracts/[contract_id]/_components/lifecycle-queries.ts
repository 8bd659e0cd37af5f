// The contract page's life-cycle calls: readiness, publish, a participant's signing link, and
// sending an invitation again (docs/web-app.md "Publishing").
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import { methodOf, pathOf, v1Queries } from "@/lib/client/v1";
import type { TContract } from "@/lib/schemas/contract";
import type { TParticipant } from "@/lib/schemas/participant";
import type { TPublishContractRequest, TPublishReadiness, TSigningLink } from "@/lib/schemas/publish";

/** Under the contract's key: any change to the contract re-checks its readiness. */
export const readinessQuery = (contractId: number) =>
  queryOptions({
    queryKey: [...v1Queries.contract(contractId).queryKey, "publish_readiness"],
    queryFn: ({ signal }) => fetchJson<TPublishReadiness>(pathOf("getPublishReadiness", { contract_id: contractId }), { signal }),
  });

export function usePublish(contractId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TPublishContractRequest) =>
      fetchJson<TContract>(pathOf("publishContract", { contract_id: contractId }), { method: methodOf("publishContract"), body: JSON.stringify(body) }),
    onSuccess: (contract) => {
      queryClient.setQueryData(v1Queries.contract(contractId).queryKey, contract);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: v1Queries.contract(contractId).queryKey }),
  });
}

type TParticipantRef = { contractId: number; partyId: number; participantId: number };
const ids = ({ contractId, partyId, participantId }: TParticipantRef) => ({ contract_id: contractId, party_id: partyId, participant_id: participantId });

export function fetchSigningLink(ref: TParticipantRef): Promise<TSigningLink> {
  return fetchJson<TSigningLink>(pathOf("getSigningLink", ids(ref)));
}

export function useSendInvitation(ref: TParticipantRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson<TParticipant>(pathOf("sendInvitation", ids(ref)), { method: methodOf("sendInvitation") }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: v1Queries.contract(ref.contractId).queryKey }),
  });
}
