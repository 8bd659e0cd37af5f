"use client";

import { inputClass } from "@/components/participant-fields";
import { hasValue } from "@/lib/domain/data-field";
import type { TDataField } from "@/lib/schemas/data-field";
import { saveErrorMessage } from "./contract-queries";
import { useUpdateDataField } from "./editing-queries";
import { InlineEditor } from "./inline-editor";

/** docs/api.md "Data field values": the API's limit, checked here before anything is sent. */
const MAX_LENGTH = 10_000;

function Shown({ value }: { value: string }) {
  return !hasValue(value) ? <span className="italic text-slate-600">Not filled in</span> : <span className="break-words">{value}</span>;
}

/**
 * A data field's value, edited in place like a participant's attributes (inline-editor.tsx): Enter
 * or leaving it saves (PUT `{ value }`). The page shows the new value at once; a refused save brings
 * the old one back and shows the API's reason next to the field.
 */
export function DataFieldValue({ contractId, field, editable }: { contractId: number; field: TDataField; editable: boolean }) {
  const update = useUpdateDataField(contractId);
  return (
    <InlineEditor<string>
      stored={field.value}
      shown={<Shown value={field.value} />}
      editLabel={`value of ${field.name}`}
      editable={editable}
      saving={update.isPending}
      plan={(draft) => {
        if (draft.length > MAX_LENGTH) return { kind: "invalid", message: `must be at most ${MAX_LENGTH} characters` };
        if (draft === field.value) return { kind: "unchanged" };
        return { kind: "save", save: () => update.mutateAsync({ field, value: draft }) };
      }}
      saveError={(error) => saveErrorMessage(error, "value")}
      control={({ draft, setDraft, controlRef, aria, invalid }) => (
        <input
          ref={controlRef}
          type="text"
          autoComplete="off"
          aria-label={`Value of ${field.name}`}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          className={`${inputClass(invalid)} w-72 max-w-full`}
          {...aria}
        />
      )}
    />
  );
}
