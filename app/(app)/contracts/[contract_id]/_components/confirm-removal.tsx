"use client";

import { useEffect, useId, useRef, useState } from "react";
import { RequestError } from "@/lib/client/fetch-json";

/** The part of a removal mutation the dialog drives. */
type TRemoval = {
  mutate: (variables: undefined, options: { onSuccess: () => void }) => void;
  reset: () => void;
  isPending: boolean;
  isError: boolean;
  error: unknown;
};

type TConfirmRemovalProps = {
  /** The button's accessible name, e.g. "Remove participant Ann". */
  buttonLabel: string;
  title: string;
  description: string;
  confirmLabel: string;
  /** "participant", "counterparty": for the refusal's words. */
  what: string;
  removal: TRemoval;
};

/** Why the server refused, in this dialog's words: the API's own message (e.g. the organizer's 409). */
function refusal(error: unknown, what: string): string {
  if (!(error instanceof RequestError)) return `The ${what} could not be removed.`;
  if (error.status === 404) return `This ${what} no longer exists (someone may have removed it already).`;
  return `The ${what} was not removed: ${error.message}`;
}

/**
 * A Remove button and its confirmation, a native modal <dialog> like the contract's Delete: focus
 * starts on Cancel, Escape and Cancel close it and focus returns to the button. A refusal stays in
 * the dialog; after a removal the Parties heading takes focus (the button is gone with its card).
 */
export function ConfirmRemoval({ buttonLabel, title, description, confirmLabel, what, removal }: TConfirmRemovalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
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
    removal.mutate(undefined, {
      onSuccess: () => {
        // Closing restores focus to the Remove button, which goes away with its card: move on from it.
        dialog.current?.close();
        setOpen(false);
        document.getElementById("parties-title")?.focus();
      },
    });
  }

  return (
    <>
      <button
        type="button"
        aria-label={buttonLabel}
        onClick={() => {
          removal.reset();
          setOpen(true);
        }}
        className="rounded-md border border-red-300 bg-white px-2.5 py-1 text-sm font-medium text-red-800 hover:bg-red-50"
      >
        Remove
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        onClose={() => setOpen(false)}
        className="w-full max-w-md rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="p-5">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <p id={descriptionId} className="mt-2 text-sm text-slate-700">
            {description}
          </p>
          {removal.isError ? (
            <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              {refusal(removal.error, what)}
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
              disabled={removal.isPending}
              className="rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
            >
              {removal.isPending ? "Removing…" : confirmLabel}
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}
