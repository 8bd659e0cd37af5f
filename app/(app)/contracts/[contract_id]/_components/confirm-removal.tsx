"use client";

import { ConfirmDialog } from "@/components/confirm-dialog";
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
 * A Remove button and its confirmation (components/confirm-dialog.tsx). After a removal the Parties
 * heading takes focus: the button is gone with its card.
 */
export function ConfirmRemoval({ buttonLabel, title, description, confirmLabel, what, removal }: TConfirmRemovalProps) {
  return (
    <ConfirmDialog
      buttonText="Remove"
      buttonLabel={buttonLabel}
      buttonClassName="rounded-md border border-red-300 bg-white px-2.5 py-1 text-sm font-medium text-red-800 hover:bg-red-50"
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      busyLabel="Removing…"
      busy={removal.isPending}
      error={removal.isError ? refusal(removal.error, what) : null}
      onOpen={removal.reset}
      onConfirm={(close) =>
        removal.mutate(undefined, {
          onSuccess: () => {
            close();
            document.getElementById("parties-title")?.focus();
          },
        })
      }
    />
  );
}
