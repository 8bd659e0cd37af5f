// What an inline edit of one participant attribute would send, or why it must not be sent. Field
// formats come from the shared zod field schemas; the template's conditional rules from
// lib/domain/options, applied to the participant as it would be after the change, as the API does.

import { ATTRIBUTE_LABELS, checkTextField, TEXT_FIELDS, type TOptionField, type TTextField } from "@/components/participant-fields";
import { asSentence, labelledProblem } from "@/components/problems";
import { participantProblems } from "@/lib/domain/options";
import type { TParticipant, TUpdateParticipantRequest } from "@/lib/schemas/participant";
import type { TAvailableOptions } from "@/lib/schemas/template";

export type TBooleanField = "signatory" | "contract:update";
export type TEditableField = TTextField | TOptionField | TBooleanField;

/** The attribute's path as the API names it in `parameter_problems`. */
export function problemPath(field: TEditableField): string {
  return field === "contract:update" ? "_permissions.contract:update" : field;
}

export function currentValue(participant: TParticipant, field: TEditableField): string | boolean {
  return field === "contract:update" ? participant._permissions["contract:update"] : participant[field];
}

/** `changes` applied to a participant: the optimistic picture, and the input of the rule check. */
export function applyChanges(participant: TParticipant, changes: TUpdateParticipantRequest): TParticipant {
  const { _permissions, ...attributes } = changes;
  return {
    ...participant,
    ...attributes,
    _permissions: { ...participant._permissions, ..._permissions },
  };
}

/** The request body changing `field` to `value`. */
export function changesFor(field: TEditableField, value: string | boolean): TUpdateParticipantRequest {
  return field === "contract:update" ? { _permissions: { "contract:update": value as boolean } } : { [field]: value };
}

export type TChangePlan =
  | { kind: "unchanged" }
  | { kind: "invalid"; message: string }
  | { kind: "save"; changes: TUpdateParticipantRequest };

/**
 * The outcome of setting `field` to `draft`: nothing to do, a message to show next to the field, or
 * the body of the PUT. A rule broken elsewhere because of this change (e.g. the phone number an
 * SMS delivery needs) is named with its attribute, since it shows next to the field being edited.
 */
export function planChange(
  participant: TParticipant,
  available: TAvailableOptions,
  field: TEditableField,
  draft: string | boolean,
): TChangePlan {
  let value = draft;
  if (typeof draft === "string" && isTextField(field)) {
    const checked = checkTextField(field, draft);
    if (!checked.ok) return { kind: "invalid", message: checked.message };
    value = checked.value;
  }
  const current = currentValue(participant, field);
  // The API treats an e-mail address in another case as the same address.
  const same = field === "email" ? String(value).toLowerCase() === String(current).toLowerCase() : value === current;
  if (same) return { kind: "unchanged" };

  const changes = changesFor(field, value);
  const after = applyChanges(participant, changes);
  const path = problemPath(field);
  // Like the API: an option is checked when it is being chosen; one stored earlier stays acceptable.
  const problems = participantProblems(available, after).filter(
    (problem) => problem.code !== "option_not_offered" || problem.path.join(".") === path,
  );
  if (problems.length > 0) {
    // One message: this field's own problem first, else the first one, named by its field's label.
    const problem = problems.find((p) => p.path.join(".") === path) ?? problems[0]!;
    const at = problem.path.join(".");
    const message = at === path ? asSentence(problem.message) : labelledProblem(ATTRIBUTE_LABELS[at] ?? "This", problem.message);
    return { kind: "invalid", message };
  }
  return { kind: "save", changes };
}

function isTextField(field: TEditableField): field is TTextField {
  return Object.hasOwn(TEXT_FIELDS, field);
}
