"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { RequestError } from "@/lib/client/fetch-json";
import { setFlash } from "@/lib/client/flash";
import type { TContract } from "@/lib/schemas/contract";
import { useDeleteContract } from "./contract-queries";

/** Why the server refused, in words for this dialog. */
function refusal(error: unknown): string {
  if (!(error instanceof RequestError)) return "The contract could not be deleted.";
  if (error.status === 404) return "This contract no longer exists (someone may have deleted it already).";
  if (error.status === 403) return `You may not delete this contract. ${error.message}`;
  if (error.status === 409) return `The contract was not deleted: ${error.message}`;
  return error.message;
}

/**
 * The Delete button and its confirmation, a native modal <dialog>: focus moves into it (to Cancel,
 * the safe choice), Escape and Cancel close it and focus returns to the button; the rest of the page
 * is inert meanwhile. After the deletion the contracts list opens with a status message.
 */
export function DeleteContract({ contract }: { contract: TContract }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const remove = useDeleteContract(contract.id);
  const router = useRouter();
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      cancel.current?.focus();
    } else if (!open && element.open) element.close();
  }, [open]);

  function confirm() {
    remove.mutate(undefined, {
      onSuccess: () => {
        setFlash(`Contract “${contract.name}” was deleted.`);
        router.push("/contracts");
      },
    });
  }

  return (
    <>
      <button
        type="button"
        onClick={() => {
          remove.reset();
          setOpen(true);
        }}
        className="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50"
      >
        Delete
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        // Escape closes it natively; keep React's state in step.
        onClose={() => setOpen(false)}
        className="w-full max-w-md rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="p-5">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            Delete this contract?
          </h2>
          <p id={descriptionId} className="mt-2 text-sm text-slate-700">
            “{contract.name}” will be deleted with its parties, participants and data fields. This cannot be undone.
          </p>
          {remove.isError ? (
            <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              {refusal(remove.error)}
            </p>
          ) : null}
          <div className="mt-5 flex justify-end gap-3">
            <button
              ref={cancel}
              type="button"
              onClick={() => setOpen(false)}
              className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              Cancel
            </button>
            <button
              type="button"
              onClick={confirm}
              disabled={remove.isPending || remove.isSuccess}
              className="rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
            >
              {remove.isPending || remove.isSuccess ? "Deleting…" : "Delete contract"}
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}
