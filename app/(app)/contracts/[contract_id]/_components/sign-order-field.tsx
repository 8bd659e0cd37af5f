"use client";

import { useId, useState, type FormEvent } from "react";
import type { TParticipant } from "@/lib/schemas/participant";
import { saveErrorMessage, useUpdateParticipant } from "./contract-queries";

/**
 * A signatory's stage on an ordered contract (docs/signing.md "Signing order"): shown always, changed
 * while the contract is a draft. The API refuses 0, negatives and fractions; gaps are named by the
 * publish checklist, since renumbering passes through them.
 */
export function SignOrderField({ contractId, partyId, participant, editable }: { contractId: number; partyId: number; participant: TParticipant; editable: boolean }) {
  const update = useUpdateParticipant(contractId);
  const inputId = useId();
  const [draft, setDraft] = useState(participant.sign_order === null ? "" : String(participant.sign_order));
  const [problem, setProblem] = useState<string | null>(null);
  if (!participant.signatory) return null;
  if (!editable) {
    return (
      <p className="mt-2 text-sm text-slate-700">
        Signing stage: <span className="font-medium text-slate-900">{participant.sign_order ?? "not set"}</span>
      </p>
    );
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const text = draft.trim();
    const value = text === "" ? null : Number(text);
    if (value !== null && (!Number.isInteger(value) || value < 1)) {
      setProblem("Type a whole number from 1 up: 1 signs first.");
      return;
    }
    setProblem(null);
    try {
      await update.mutateAsync({ partyId, participantId: participant.id, changes: { sign_order: value } });
    } catch (error) {
      setProblem(saveErrorMessage(error, "sign_order"));
    }
  }

  return (
    <form onSubmit={save} className="mt-2 flex flex-wrap items-end gap-2 text-sm">
      <label htmlFor={inputId} className="font-medium text-slate-700">
        Signing stage
      </label>
      <input
        id={inputId}
        inputMode="numeric"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${inputId}-problem` : undefined}
        className="w-20 rounded-md border border-slate-300 px-2 py-1"
      />
      <button type="submit" disabled={update.isPending} className="rounded-md border border-slate-300 px-3 py-1 font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-50">
        Save stage
      </button>
      {problem ? (
        <p id={`${inputId}-problem`} role="alert" className="w-full text-red-800">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
