// The contract page's term and life after signing (docs/web-app.md "Term"): the draft's settings,
// notice, termination and internal reminders, on the /v1 routes. Every write refreshes the contract's
// key, so its lifecycle state and Activity follow.

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import { listAll, listUsers, methodOf, pathOf, v1Queries } from "@/lib/client/v1";
import type { TContract } from "@/lib/schemas/contract";
import type { TContractReminder, TCreateContractReminderRequest, TLifecycleSettingsRequest } from "@/lib/schemas/lifecycle";
import type { TUser } from "@/lib/schemas/user";

type TReminderList = { count: number; data: TContractReminder[] };

/** Under the contract's key: any change to the contract refreshes them. */
export const internalRemindersQuery = (contractId: number) =>
  queryOptions({
    queryKey: [...v1Queries.contract(contractId).queryKey, "internal_reminders"],
    queryFn: ({ signal }) => fetchJson<TReminderList>(pathOf("listContractReminders", { contract_id: contractId }), { signal }),
  });

/** Everyone a reminder may go to (the API refuses one who cannot see the contract). */
export const allUsersQuery = () =>
  queryOptions({
    queryKey: ["v1", "users", "all"],
    queryFn: ({ signal }): Promise<TUser[]> => listAll(listUsers, { signal }),
    staleTime: 5 * 60_000,
  });

/** A write answered with the contract: the answer replaces the cached one, then everything under its key refreshes. */
function useContractWrite<TBody>(contractId: number, send: (body: TBody) => Promise<TContract>) {
  const queryClient = useQueryClient();
  const key = v1Queries.contract(contractId).queryKey;
  return useMutation({
    mutationFn: send,
    onSuccess: (contract) => queryClient.setQueryData(key, contract),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export function useUpdateTerm(contractId: number) {
  return useContractWrite(contractId, (body: TLifecycleSettingsRequest) =>
    fetchJson<TContract>(pathOf("updateContractLifecycleSettings", { contract_id: contractId }), {
      method: methodOf("updateContractLifecycleSettings"),
      body: JSON.stringify(body),
    }),
  );
}

export function useGiveNotice(contractId: number) {
  return useContractWrite(contractId, () =>
    fetchJson<TContract>(pathOf("cancelContract", { contract_id: contractId }), { method: methodOf("cancelContract"), body: JSON.stringify({}) }),
  );
}

export function useTerminate(contractId: number) {
  return useContractWrite(contractId, (body: { date?: string }) =>
    fetchJson<TContract>(pathOf("terminateContract", { contract_id: contractId }), { method: methodOf("terminateContract"), body: JSON.stringify(body) }),
  );
}

/** Adding and removing a reminder refresh the contract's key: the list and Activity. */
function useReminderWrite<TBody, TAnswer>(contractId: number, send: (body: TBody) => Promise<TAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => queryClient.invalidateQueries({ queryKey: v1Queries.contract(contractId).queryKey }),
  });
}

export function useAddReminder(contractId: number) {
  return useReminderWrite(contractId, (body: TCreateContractReminderRequest) =>
    fetchJson<TContractReminder>(pathOf("createContractReminder", { contract_id: contractId }), {
      method: methodOf("createContractReminder"),
      body: JSON.stringify(body),
    }),
  );
}

export function useDeleteReminder(contractId: number) {
  return useReminderWrite(contractId, (reminderId: number) =>
    fetchJson<undefined>(pathOf("deleteContractReminder", { contract_id: contractId, reminder_id: reminderId }), { method: methodOf("deleteContractReminder") }),
  );
}
