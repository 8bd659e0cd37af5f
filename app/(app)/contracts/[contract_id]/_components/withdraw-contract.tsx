"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { labelledProblem } from "@/components/problems";
import { fetchJson, RequestError } from "@/lib/client/fetch-json";
import { methodOf, pathOf, v1Queries } from "@/lib/client/v1";
import type { TContract } from "@/lib/schemas/contract";
import { ZWithdrawContractRequestSchema } from "@/lib/schemas/publish";

/**
 * The Withdraw button of a pending contract, its confirmation and the optional reason
 * (docs/signing.md "Withdrawing and overdue"): checked with the request's own schema before sending, and a refusal
 * of it shown as one sentence next to the field.
 */
export function WithdrawContract({ contract }: { contract: TContract }) {
  const queryClient = useQueryClient();
  const key = v1Queries.contract(contract.id).queryKey;
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const fieldId = useId();
  const withdraw = useMutation({
    mutationFn: (body: { reason: string }) =>
      fetchJson<TContract>(pathOf("withdrawContract", { contract_id: contract.id }), { method: methodOf("withdrawContract"), body: JSON.stringify(body) }),
    onSuccess: (withdrawn) => queryClient.setQueryData(key, withdrawn),
    onError: (error) => {
      const refused = error instanceof RequestError ? error.parameterProblems.reason?.[0] : undefined;
      if (refused) setProblem(labelledProblem("The reason", refused));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const reasonRefused = withdraw.error instanceof RequestError && withdraw.error.parameterProblems.reason !== undefined;
  const refusal = reasonRefused ? null : withdraw.error instanceof RequestError ? withdraw.error.message : withdraw.isError ? "The contract could not be withdrawn." : null;

  function confirm() {
    const parsed = ZWithdrawContractRequestSchema.safeParse({ reason });
    if (!parsed.success) {
      setProblem(labelledProblem("The reason", parsed.error.issues[0]?.message ?? "is not valid"));
      return;
    }
    setProblem(null);
    withdraw.mutate({ reason: parsed.data.reason });
  }

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
      onOpen={() => {
        withdraw.reset();
        setProblem(null);
      }}
      onConfirm={confirm}
    >
      <div className="mt-4 text-sm">
        <label htmlFor={fieldId} className="block font-medium text-slate-800">
          Reason <span className="font-normal text-slate-600">(optional; in the e-mail and the history)</span>
        </label>
        <textarea
          id={fieldId}
          value={reason}
          rows={3}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setProblem(null);
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${fieldId}-problem` : undefined}
          className="mt-1 w-full rounded border border-slate-300 bg-white px-2 py-1 text-slate-900"
        />
        {problem ? (
          <p id={`${fieldId}-problem`} className="mt-1 text-red-800">
            {problem}
          </p>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}
