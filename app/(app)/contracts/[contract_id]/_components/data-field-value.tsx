"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { inputClass } from "@/components/participant-fields";
import type { TDataField } from "@/lib/schemas/data-field";
import { saveErrorMessage } from "./contract-queries";
import { useUpdateDataField } from "./editing-queries";
import { EditorButton, PencilIcon } from "./inline-field-parts";

/** docs/api.md "Data field values": the API's limit, checked here before anything is sent. */
const MAX_LENGTH = 10_000;

function Shown({ value }: { value: string }) {
  return value === "" ? <span className="italic text-slate-600">Not filled in</span> : <span className="break-words">{value}</span>;
}

/**
 * A data field's value, edited in place like a participant's attributes (inline-field.tsx): the
 * value is a button that turns into an input; Enter or leaving it saves (PUT `{ value }`), Escape
 * cancels, both give focus back to the button. The page shows the new value at once; a refused
 * save brings the old one back and shows the API's reason next to the field.
 */
export function DataFieldValue({ contractId, field, editable }: { contractId: number; field: TDataField; editable: boolean }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const update = useUpdateDataField(contractId);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const editingRef = useRef(false);
  const refocusButton = useRef(false);
  const messageId = useId();

  useEffect(() => {
    if (editing) inputRef.current?.focus();
    else if (refocusButton.current) {
      refocusButton.current = false;
      buttonRef.current?.focus();
    }
  }, [editing]);

  function close(focusButton: boolean) {
    editingRef.current = false;
    refocusButton.current = focusButton;
    setEditing(false);
  }

  function open() {
    setDraft(field.value);
    setMessage(null);
    editingRef.current = true;
    setEditing(true);
  }

  function commit(focusButton: boolean) {
    if (!editingRef.current) return;
    if (draft.length > MAX_LENGTH) {
      setMessage(`must be at most ${MAX_LENGTH} characters`);
      return;
    }
    setMessage(null);
    close(focusButton);
    if (draft === field.value) return;
    update.mutateAsync({ field, value: draft }).catch((error: unknown) => setMessage(saveErrorMessage(error, "value")));
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

  if (!editable) return <Shown value={field.value} />;

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
          <Shown value={field.value} />
          <span className="sr-only">, edit value of {field.name}</span>
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

  return (
    <div
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) commit(false);
      }}
    >
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={inputRef}
          type="text"
          autoComplete="off"
          aria-label={`Value of ${field.name}`}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? messageId : undefined}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          className={`${inputClass(message !== null)} w-72 max-w-full`}
        />
        <EditorButton onClick={() => commit(true)}>Save</EditorButton>
        <EditorButton onClick={cancel}>Cancel</EditorButton>
      </div>
      {messageLine}
    </div>
  );
}
