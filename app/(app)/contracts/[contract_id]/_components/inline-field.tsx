"use client";

import type { TParticipant } from "@/lib/schemas/participant";
import type { TAvailableOptions } from "@/lib/schemas/template";
import { saveErrorMessage, useUpdateParticipant } from "./contract-queries";
import { InlineEditor } from "./inline-editor";
import { Control, Display } from "./inline-field-parts";
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
  const update = useUpdateParticipant(contractId);
  const current = currentValue(participant, field);
  return (
    <InlineEditor<string | boolean>
      stored={current}
      shown={<Display field={field} value={current} />}
      editLabel={label}
      editable={editable && available !== undefined}
      readOnlyHint={readOnlyHint}
      saving={update.isPending}
      plan={(draft) => {
        if (!available) return undefined;
        const plan = planChange(participant, available, field, draft);
        if (plan.kind !== "save") return plan;
        return { kind: "save", save: () => update.mutateAsync({ partyId, participantId: participant.id, changes: plan.changes }) };
      }}
      saveError={(error) => saveErrorMessage(error, problemPath(field))}
      control={({ draft, setDraft, controlRef, aria }) => (
        <Control
          field={field}
          draft={draft}
          setDraft={setDraft}
          available={available!}
          stored={current}
          controlRef={controlRef}
          aria={{ ...aria, "aria-labelledby": labelId }}
          label={label}
        />
      )}
    />
  );
}
