"use client";

// The pieces of an inline field: its editing control (input, select or checkbox, by attribute), the
// value as shown when not editing, and the editor's buttons.

import type { KeyboardEvent, ReactNode, Ref } from "react";
import { inputClass, OFFERED_KEY, optionLabel, OptionSelect, TEXT_FIELDS, type TOptionField } from "@/components/participant-fields";
import type { TAvailableOptions } from "@/lib/schemas/template";
import type { TEditableField } from "./participant-change";

/** What the inline editor (inline-editor.tsx) wires into its control: its id, error state and keys. */
export type TEditorAria = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  onKeyDown: (event: KeyboardEvent) => void;
};

/** A participant attribute's control is also named by its visible label. */
export type TControlAria = TEditorAria & { "aria-labelledby": string };

export type TControlProps = {
  field: TEditableField;
  draft: string | boolean;
  setDraft: (value: string | boolean) => void;
  available: TAvailableOptions;
  stored: string | boolean;
  controlRef: Ref<HTMLInputElement & HTMLSelectElement>;
  aria: TControlAria;
  label: string;
};

export function Control({ field, draft, setDraft, available, stored, controlRef, aria, label }: TControlProps) {
  if (typeof draft === "boolean") {
    return (
      <label className="inline-flex items-center gap-2 text-sm">
        <input ref={controlRef} type="checkbox" checked={draft} onChange={(e) => setDraft(e.target.checked)} className="size-4" {...aria} />
        <span aria-hidden="true">{label}</span>
      </label>
    );
  }
  if (isOptionField(field)) {
    return (
      <OptionSelect
        ref={controlRef}
        field={field}
        offered={available[OFFERED_KEY[field]]}
        stored={String(stored)}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        className={`${inputClass(aria["aria-invalid"] === true)} w-auto`}
        {...aria}
      />
    );
  }
  const definition = TEXT_FIELDS[field as keyof typeof TEXT_FIELDS];
  return (
    <input
      ref={controlRef}
      type={definition.type}
      autoComplete="off"
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      className={`${inputClass(aria["aria-invalid"] === true)} w-72 max-w-full`}
      {...aria}
    />
  );
}

function isOptionField(field: TEditableField): field is TOptionField {
  return Object.hasOwn(OFFERED_KEY, field);
}

/** Save and Cancel for pointer users; they keep focus in the editor, so pressing them is not a blur-save. */
export function EditorButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      className="rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
    >
      {children}
    </button>
  );
}

/** A value as the page shows it: words for options and yes/no, "Not set" for an empty text. */
export function Display({ field, value }: { field: TEditableField; value: string | boolean }) {
  if (typeof value === "boolean") return <span>{value ? "Yes" : "No"}</span>;
  if (isOptionField(field)) return <span>{optionLabel(field, value)}</span>;
  if (value === "") return <span className="italic text-slate-600">Not set</span>;
  return <span className="break-all">{value}</span>;
}

export function PencilIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5 shrink-0 fill-current text-slate-400 group-hover:text-blue-700">
      <path d="M11.7 1.3a1 1 0 0 1 1.4 0l1.6 1.6a1 1 0 0 1 0 1.4L5.4 13.6 2 14l.4-3.4z" />
    </svg>
  );
}
