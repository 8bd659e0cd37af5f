"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { fetchJson, RequestError } from "@/lib/client/fetch-json";
import { methodOf, pathOf, v1Queries } from "@/lib/client/v1";
import type { TContract } from "@/lib/schemas/contract";

/** The Withdraw button of a pending contract and its confirmation (docs/signing.md "Withdrawing and overdue"). */
export function WithdrawContract({ contract }: { contract: TContract }) {
  const queryClient = useQueryClient();
  const key = v1Queries.contract(contract.id).queryKey;
  const withdraw = useMutation({
    mutationFn: () => fetchJson<TContract>(pathOf("withdrawContract", { contract_id: contract.id }), { method: methodOf("withdrawContract"), body: JSON.stringify({}) }),
    onSuccess: (withdrawn) => queryClient.setQueryData(key, withdrawn),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const refusal = withdraw.error instanceof RequestError ? withdraw.error.message : withdraw.isError ? "The contract could not be withdrawn." : null;
  return (
    <ConfirmDialog
      buttonText="Withdraw"
      buttonClassName="rounded-md border border-amber-300 bg-white px-3 py-1.5 text-sm font-medium text-amber-900 hover:bg-amber-50"
      title="Withdraw this contract?"
      description={`“${contract.name}” will no longer be signed: every signing link stops working, and everyone who was invited is told by e-mail. The contract and its history stay here.`}
      confirmLabel="Withdraw contract"
      busyLabel="Withdrawing…"
      busy={withdraw.isPending}
      error={refusal}
      onOpen={withdraw.reset}
      onConfirm={() => withdraw.mutate()}
    />
  );
}
