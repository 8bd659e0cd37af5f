// The wizard's one react-hook-form model. Its values have the shape of the create request
// (lib/schemas ZCreateContractRequestSchema), so a `parameter_problems` path the API answers, such as
// `parties.0.participants.1.email`, is also the name of the form field it is about.

import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldErrors, FieldPath, Resolver } from "react-hook-form";
import { z } from "zod";
import { defaultParticipantOptions, participantProblems, requiredAttributes, type TParticipantOptions } from "@/lib/domain/options";
import { ZCreateContractRequestSchema, type TCreateContractRequest } from "@/lib/schemas/contract";
import type { TAvailableOptions } from "@/lib/schemas/template";
import { EMPTY_TERM_FORM, termRequestOf, type TTermFormValues } from "@/components/term-fields/term-values";

/** A participant as the form holds it: every option chosen (pre-selected from the template's defaults). */
export type TWizardParticipant = TParticipantOptions & {
  name: string;
  title: string;
  email: string;
  phone_number: string;
  identification_number: string;
  signatory: boolean;
  /** The signing stage when the contract is signed in order; null when not set. */
  sign_order: number | null;
  _permissions: { "contract:update": boolean };
};

export type TWizardCompanyParty = {
  type: "company";
  name: string;
  country_code: string;
  identification_number: string;
  participants: TWizardParticipant[];
};

/** An individual party's name and number are its participant's (docs/api.md), so it has neither. */
export type TWizardIndividualParty = { type: "individual"; country_code: string; participant: TWizardParticipant };

export type TWizardParty = TWizardCompanyParty | TWizardIndividualParty;

export type TWizardValues = {
  /** Blank: the contract gets the template's name, as when the API is sent no name. */
  name: string;
  workspace_id: number | undefined;
  template_id: number | undefined;
  signing_order: "parallel" | "ordered";
  /** The term as entered (components/term-fields); sent as the request's `lifecycle_settings`, every setting named. */
  lifecycle_settings: TTermFormValues;
  parties: TWizardParty[];
};

export const EMPTY_WIZARD: TWizardValues = {
  name: "",
  workspace_id: undefined,
  template_id: undefined,
  signing_order: "parallel",
  lifecycle_settings: EMPTY_TERM_FORM,
  parties: [],
};

/** A new participant: the template's default options (the API's own default function), nothing typed yet. */
export function newParticipant(available: TAvailableOptions): TWizardParticipant {
  return {
    name: "",
    title: "",
    email: "",
    phone_number: "",
    identification_number: "",
    ...defaultParticipantOptions(available),
    // The API's defaults for an omitted signatory and permission.
    signatory: false,
    sign_order: null,
    _permissions: { "contract:update": false },
  };
}

export function newCompanyParty(available: TAvailableOptions): TWizardCompanyParty {
  return { type: "company", name: "", country_code: "", identification_number: "", participants: [newParticipant(available)] };
}

export function newIndividualParty(available: TAvailableOptions): TWizardIndividualParty {
  return { type: "individual", country_code: "", participant: newParticipant(available) };
}

/** Each participant of the form with its path (`parties.0.participants.1`, `parties.2.participant`). */
export function participantsWithPaths(parties: readonly TWizardParty[]): { path: string; participant: TWizardParticipant }[] {
  return parties.flatMap((party, index) =>
    party.type === "company"
      ? party.participants.map((participant, j) => ({ path: `parties.${index}.participants.${j}`, participant }))
      : [{ path: `parties.${index}.participant`, participant: party.participant }],
  );
}

const CONTACT_ATTRIBUTES = ["email", "phone_number"] as const;

/**
 * The participant as it will be sent: e-mail and phone are shown only when the chosen options require
 * them, so a value typed before the options changed (kept, in case they change back) is not sent.
 */
export function participantToSend(participant: TWizardParticipant, available: TAvailableOptions | undefined): TWizardParticipant {
  if (!available) return participant;
  const required = requiredAttributes(available, participant);
  const sent = { ...participant };
  for (const attribute of CONTACT_ATTRIBUTES) if (!required.has(attribute)) sent[attribute] = "";
  return sent;
}

/** The form's values as they will be sent (see participantToSend). */
export function valuesToSend(values: TWizardValues, available: TAvailableOptions | undefined): TWizardValues {
  return {
    ...values,
    parties: values.parties.map((party) =>
      party.type === "company"
        ? { ...party, participants: party.participants.map((p) => participantToSend(p, available)) }
        : { ...party, participant: participantToSend(party.participant, available) },
    ),
  };
}

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

/** The create request's schema, with a blank name meaning "not sent". */
const ZWizardRequestSchema = ZCreateContractRequestSchema.extend({
  name: z.preprocess(blankToUndefined, ZCreateContractRequestSchema.shape.name),
});

/**
 * The shared request schema plus the template's conditional rules (lib/domain/options), checked on
 * `values` themselves: every option is chosen in the form, so each participant there is already
 * resolved exactly as the API will resolve it.
 */
function wizardSchema(values: TWizardValues, available: TAvailableOptions | undefined) {
  return ZWizardRequestSchema.superRefine((_request, ctx) => {
    if (!available) return;
    for (const { path, participant } of participantsWithPaths(values.parties)) {
      for (const problem of participantProblems(available, participant)) {
        ctx.addIssue({ code: "custom", path: [...path.split("."), ...problem.path], message: problem.message });
      }
    }
  });
}

/**
 * The form's resolver. `getAvailable` reads the chosen template's options at validation time, so the
 * rules follow the template without re-creating the form.
 */
export function wizardResolver(
  getAvailable: () => TAvailableOptions | undefined,
): Resolver<TWizardValues, unknown, TCreateContractRequest> {
  return async (values, context, options) => {
    const available = getAvailable();
    // The term is sent as the API's settings, checked by the shared rules (term-values.ts) on its own
    // fields: every other field's problems are found whether or not the term has any.
    // A form without the term (the contract page's one-party forms) sends none.
    const term = values.lifecycle_settings ? termRequestOf(values.lifecycle_settings) : null;
    const toSend = { ...valuesToSend(values, available), ...(term ? { lifecycle_settings: term.settings } : {}) } as unknown as TWizardValues;
    // The schema's input type says `workspace_id: number`; the form also holds "not chosen yet",
    // which the schema reports as "is required".
    const resolve = zodResolver(wizardSchema(toSend, available)) as unknown as Resolver<TWizardValues, unknown, TCreateContractRequest>;
    const result = await resolve(toSend, context, options);
    const termEntries = Object.entries(term?.problems ?? {});
    if (termEntries.length === 0) return result;
    const termErrors = Object.fromEntries(termEntries.map(([setting, message]) => [setting, { type: "validate", message }]));
    const errors = { ...result.errors, lifecycle_settings: { ...(result.errors.lifecycle_settings as object | undefined), ...termErrors } } as FieldErrors<TWizardValues>;
    return { values: {}, errors };
  };
}

/**
 * Fields of each step, validated (with the whole form's resolver) before moving on. The term's
 * settings are named one by one: react-hook-form keeps a problem found by `trigger` only on a name
 * that has it (or its fields), and the term is one field with settings inside.
 */
export const STEP_FIELDS = {
  1: [
    "name",
    "workspace_id",
    "template_id",
    "signing_order",
    "lifecycle_settings.duration",
    "lifecycle_settings.start_date",
    "lifecycle_settings.end_date",
    "lifecycle_settings.initial_duration",
    "lifecycle_settings.renewal_period",
    "lifecycle_settings.notice_period",
  ],
  2: ["parties"],
} as const satisfies Record<number, readonly FieldPath<TWizardValues>[]>;

export const STEPS = [
  { number: 1, title: "Contract" },
  { number: 2, title: "Counterparties" },
  { number: 3, title: "Review" },
] as const;
export type TStep = (typeof STEPS)[number]["number"];

/** The step showing the field a `parameter_problems` path is about; the review step for anything else. */
export function stepOfPath(path: string): TStep {
  const [head] = path.split(".");
  if (head === "parties") return 2;
  return (STEP_FIELDS[1] as readonly string[]).some((field) => field.split(".")[0] === head) ? 1 : 3;
}

/**
 * A participant's options after the template changed: what the new template still offers is kept,
 * any option it does not offer (as the shared rules judge it) becomes the template's default.
 */
export function adaptOptions(participant: TWizardParticipant, available: TAvailableOptions): TParticipantOptions {
  const defaults = defaultParticipantOptions(available);
  const adapted: TParticipantOptions = {
    delivery_channel: participant.delivery_channel,
    sign_method: participant.sign_method,
    two_step_authentication_method: participant.two_step_authentication_method,
  };
  for (const problem of participantProblems(available, participant)) {
    const field = problem.path[0] as keyof TParticipantOptions;
    if (problem.code === "option_not_offered") Object.assign(adapted, { [field]: defaults[field] });
  }
  return adapted;
}
