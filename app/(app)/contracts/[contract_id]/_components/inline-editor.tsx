"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import { asSentence } from "@/components/problems";
import { EditorButton, PencilIcon, type TEditorAria } from "./inline-field-parts";

/** What a draft would do when committed: nothing yet, refuse with a reason, nothing, or a save. */
export type TEditorPlan = undefined | { kind: "invalid"; message: string } | { kind: "unchanged" } | { kind: "save"; save: () => Promise<unknown> };

export type TInlineEditorProps<T> = {
  /** The stored value: where a draft starts. */
  stored: T;
  /** The stored value as shown, in the button and when not editable. */
  shown: ReactNode;
  /** Read after ", edit" by screen readers on the button (e.g. "value of Notes"). */
  editLabel: string;
  editable: boolean;
  /** Shown under the value when it is not editable (e.g. why). */
  readOnlyHint?: ReactNode;
  /** Whether a save is in flight (shows "Saving…"). */
  saving: boolean;
  plan: (draft: T) => TEditorPlan;
  /** The message for a refused save, shown next to the value while the stored one comes back. */
  saveError: (error: unknown) => string;
  control: (props: { draft: T; setDraft: (value: T) => void; controlRef: RefObject<(HTMLInputElement & HTMLSelectElement) | null>; aria: TEditorAria; invalid: boolean }) => ReactNode;
};

/**
 * A value edited in place (participants' attributes, data fields): a button showing the value turns
 * into a control. Enter, Save or leaving the editor commits; Escape or Cancel gives up; both give
 * focus back to the button. A draft `plan` refuses is explained here before anything is sent; a
 * refused save shows `saveError`'s reason here while the stored value comes back.
 */
export function InlineEditor<T>({ stored, shown, editLabel, editable, readOnlyHint, saving, plan, saveError, control }: TInlineEditorProps<T>) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<T>(stored);
  const [message, setMessage] = useState<string | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const controlRef = useRef<HTMLInputElement & HTMLSelectElement>(null);
  // Read in event handlers that may run after the editor closed (a blur while it unmounts).
  const editingRef = useRef(false);
  const refocusButton = useRef(false);
  const messageId = useId();
  const controlId = useId();

  useEffect(() => {
    if (editing) controlRef.current?.focus();
    else if (refocusButton.current) {
      refocusButton.current = false;
      buttonRef.current?.focus();
    }
  }, [editing]);

  function open() {
    setDraft(stored);
    setMessage(null);
    editingRef.current = true;
    setEditing(true);
  }

  function close(focusButton: boolean) {
    editingRef.current = false;
    refocusButton.current = focusButton;
    setEditing(false);
  }

  function commit(focusButton: boolean) {
    if (!editingRef.current) return;
    const next = plan(draft);
    if (next === undefined) return;
    if (next.kind === "invalid") {
      setMessage(asSentence(next.message));
      return;
    }
    setMessage(null);
    close(focusButton);
    if (next.kind === "save") next.save().catch((error: unknown) => setMessage(saveError(error)));
  }

  function cancel() {
    setMessage(null);
    close(true);
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Enter") {
      event.preventDefault();
      commit(true);
    } else if (event.key === "Escape") {
      event.preventDefault();
      cancel();
    }
  }

  const messageLine = message ? (
    <p id={messageId} role="alert" className="mt-1 text-sm text-red-700">
      {message}
    </p>
  ) : null;

  if (!editable) {
    return (
      <div>
        {shown}
        {readOnlyHint ? <p className="mt-0.5 text-xs text-slate-600">{readOnlyHint}</p> : null}
        {messageLine}
      </div>
    );
  }

  if (!editing) {
    return (
      <div>
        <button
          ref={buttonRef}
          type="button"
          onClick={open}
          aria-describedby={message ? messageId : undefined}
          className="group -mx-1.5 inline-flex max-w-full items-center gap-2 rounded px-1.5 py-0.5 text-left hover:bg-blue-50"
        >
          {shown}
          <span className="sr-only">, edit {editLabel}</span>
          <PencilIcon />
        </button>
        {saving ? (
          <p role="status" className="mt-0.5 text-xs text-slate-600">
            Saving…
          </p>
        ) : null}
        {messageLine}
      </div>
    );
  }

  const aria: TEditorAria = {
    id: controlId,
    "aria-invalid": message ? true : undefined,
    "aria-describedby": message ? messageId : undefined,
    onKeyDown,
  };
  return (
    <div
      // Leaving the editor saves, but moving between its own controls (Save, Cancel) does not.
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) commit(false);
      }}
    >
      <div className="flex flex-wrap items-center gap-2">
        {control({ draft, setDraft, controlRef, aria, invalid: message !== null })}
        <EditorButton onClick={() => commit(true)}>Save</EditorButton>
        <EditorButton onClick={cancel}>Cancel</EditorButton>
      </div>
      {messageLine}
    </div>
  );
}
