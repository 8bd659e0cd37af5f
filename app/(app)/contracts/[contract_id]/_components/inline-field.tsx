"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { TParticipant } from "@/lib/schemas/participant";
import type { TAvailableOptions } from "@/lib/schemas/template";
import { saveErrorMessage, useUpdateParticipant } from "./contract-queries";
import { Control, Display, EditorButton, PencilIcon, type TControlAria } from "./inline-field-parts";
import { currentValue, planChange, problemPath, type TEditableField } from "./participant-change";

export type TInlineFieldProps = {
  contractId: number;
  partyId: number;
  participant: TParticipant;
  field: TEditableField;
  label: string;
  /** The id of the visible label (`<dt>`) the editor is named by. */
  labelId: string;
  /** The template's options, or undefined while unknown (then nothing is editable). */
  available: TAvailableOptions | undefined;
  editable: boolean;
  /** Why this one field cannot be edited, shown under it (e.g. the owner side's e-mail). */
  readOnlyHint?: string;
};

/**
 * One participant attribute, edited in place: a button showing the value turns into an input,
 * select or checkbox. Enter (or leaving it) saves through the participant PUT, Escape cancels; both
 * give focus back to the button. A value the shared rules refuse is explained here before anything
 * is sent; a refused save shows the server's reason here while the old value comes back.
 */
export function InlineField(props: TInlineFieldProps) {
  const { contractId, partyId, participant, field, label, labelId, available, editable, readOnlyHint } = props;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<string | boolean>("");
  const [message, setMessage] = useState<string | null>(null);
  const update = useUpdateParticipant(contractId);
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

  const current = currentValue(participant, field);

  function open() {
    setDraft(current);
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
    if (!editingRef.current || !available) return;
    const plan = planChange(participant, available, field, draft);
    if (plan.kind === "invalid") {
      setMessage(plan.message);
      return;
    }
    setMessage(null);
    close(focusButton);
    if (plan.kind === "unchanged") return;
    update
      .mutateAsync({ partyId, participantId: participant.id, changes: plan.changes })
      .catch((error: unknown) => setMessage(saveErrorMessage(error, problemPath(field))));
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

  if (!editable || !available) {
    return (
      <div>
        <Display field={field} value={current} />
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
          <Display field={field} value={current} />
          <span className="sr-only">, edit {label}</span>
          <PencilIcon />
        </button>
        {update.isPending ? (
          <p role="status" className="mt-0.5 text-xs text-slate-600">
            Saving…
          </p>
        ) : null}
        {messageLine}
      </div>
    );
  }

  const aria: TControlAria = {
    id: controlId,
    "aria-labelledby": labelId,
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
        <Control field={field} draft={draft} setDraft={setDraft} available={available} stored={current} controlRef={controlRef} aria={aria} label={label} />
        <EditorButton onClick={() => commit(true)}>Save</EditorButton>
        <EditorButton onClick={cancel}>Cancel</EditorButton>
      </div>
      {messageLine}
    </div>
  );
}
