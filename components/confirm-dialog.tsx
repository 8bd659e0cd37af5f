"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";

type TConfirmDialogProps = {
  /** The button that opens the dialog: its text, an accessible name when the text is not enough, its look. */
  buttonText: string;
  buttonLabel?: string;
  buttonClassName: string;
  title: string;
  description: ReactNode;
  /** Fields the confirmation takes (e.g. a reason), between the description and the buttons. */
  children?: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  /** The refusal to show in the dialog, in its words; null while there is none. */
  error: string | null;
  /** Called as the dialog opens (e.g. to forget the last attempt's error). */
  onOpen: () => void;
  /** Called by the confirm button; `close` closes the dialog (e.g. once the change succeeded). */
  onConfirm: (close: () => void) => void;
};

/**
 * A button and its confirmation, a native modal <dialog>: focus moves into it (to Cancel, the safe
 * choice), Escape and Cancel close it and focus returns to the button; the rest of the page is inert
 * meanwhile. A refusal stays in the dialog, and so does focus.
 */
export function ConfirmDialog({ buttonText, buttonLabel, buttonClassName, title, description, children, confirmLabel, busyLabel, busy, error, onOpen, onConfirm }: TConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  // Closings this component made whose `close` event has not come yet: the event comes a task
  // later, when the button may have opened the dialog again (Cancel, then Enter at once).
  const ownClosings = useRef(0);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      cancel.current?.focus();
    } else if (!open && element.open) closeElement(element);
  }, [open]);

  const closeElement = (element: HTMLDialogElement) => {
    ownClosings.current += 1;
    element.close();
  };
  const close = () => {
    if (dialog.current?.open) closeElement(dialog.current);
    setOpen(false);
  };

  return (
    <>
      <button
        type="button"
        aria-label={buttonLabel}
        onClick={() => {
          onOpen();
          setOpen(true);
        }}
        className={buttonClassName}
      >
        {buttonText}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        // Escape closes it natively: keep React's state in step. The event of a closing of our own
        // changes nothing: the state said closed already, and may say open again since.
        onClose={() => {
          if (ownClosings.current > 0) ownClosings.current -= 1;
          else setOpen(false);
        }}
        className="w-full max-w-md rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="p-5">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <p id={descriptionId} className="mt-2 text-sm text-slate-700">
            {description}
          </p>
          {children}
          {error ? (
            <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
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
            {/* aria-disabled, not disabled, while busy: a refusal leaves focus on this button, not on the page. */}
            <button
              type="button"
              onClick={() => {
                if (!busy) onConfirm(close);
              }}
              aria-disabled={busy || undefined}
              className="rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800 aria-disabled:opacity-60"
            >
              {busy ? busyLabel : confirmLabel}
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}
