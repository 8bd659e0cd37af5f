// The template-driven participant rules (docs/api.md "The domain"), shared by the API and the
// creation wizard so both pick the same defaults and report the same problems. Pure: no I/O.

import type { TDeliveryChannel, TParticipantAttribute, TSignMethod, TTwoStepMethod } from "@/lib/domain/enums";

export type TParticipantOptions = {
  delivery_channel: TDeliveryChannel;
  sign_method: TSignMethod;
  two_step_authentication_method: TTwoStepMethod;
};

type Option<N extends string> = { name: N; preferred: boolean };
type OptionWithRequirements<N extends string> = Option<N> & { required_participant_attributes: TParticipantAttribute[] };

/** The options a template offers its participants: the shape of `available_options` (lib/schemas/template.ts). */
export type TAvailableOptions = {
  delivery_channels: OptionWithRequirements<TDeliveryChannel>[];
  sign_methods: Option<TSignMethod>[];
  two_step_authentication_methods: OptionWithRequirements<TTwoStepMethod>[];
};

/** A participant as it will be stored after a create or update: every option chosen. */
export type TResolvedParticipant = TParticipantOptions & {
  email: string;
  phone_number: string;
  signatory: boolean;
  _permissions: { "contract:update": boolean };
};

export type TParticipantProblem = {
  /** Relative to the participant; the caller prefixes e.g. `parties.0.participants.1`. */
  path: string[];
  message: string;
  code: "option_not_offered" | "participant_attribute_missing" | "signatory_requires_contract_update";
};

// Used only when a template offers nothing at all in a list; participantProblems then reports the
// fallback as not offered, so a misconfigured template is a clear 400 rather than a crash.
const FALLBACK: TParticipantOptions = {
  delivery_channel: "email",
  sign_method: "standard_esign",
  two_step_authentication_method: "none",
};

function preferredOrFirst<N extends string>(options: readonly Option<N>[]): N | undefined {
  return (options.find((option) => option.preferred) ?? options[0])?.name;
}

function offered<N extends string>(options: readonly Option<N>[], name: N): boolean {
  return options.some((option) => option.name === name);
}

/** The options an omitted attribute gets. `standard_esign` and `none` win when offered (docs/api.md "The domain"). */
export function defaultParticipantOptions(available: TAvailableOptions): TParticipantOptions {
  const { delivery_channels, sign_methods, two_step_authentication_methods: twoStep } = available;
  return {
    delivery_channel: preferredOrFirst(delivery_channels) ?? FALLBACK.delivery_channel,
    sign_method: offered(sign_methods, "standard_esign")
      ? "standard_esign"
      : (preferredOrFirst(sign_methods) ?? FALLBACK.sign_method),
    two_step_authentication_method: offered(twoStep, "none")
      ? "none"
      : (preferredOrFirst(twoStep) ?? FALLBACK.two_step_authentication_method),
  };
}

/** Each attribute the chosen options require, with the first option that requires it (for messages). */
function requirements(
  available: TAvailableOptions,
  chosen: Pick<TParticipantOptions, "delivery_channel" | "two_step_authentication_method">,
): Map<TParticipantAttribute, string> {
  const sources = [
    { field: "delivery_channel", value: chosen.delivery_channel, options: available.delivery_channels },
    {
      field: "two_step_authentication_method",
      value: chosen.two_step_authentication_method,
      options: available.two_step_authentication_methods,
    },
  ];
  const reasons = new Map<TParticipantAttribute, string>();
  for (const { field, value, options } of sources) {
    const option = options.find((candidate) => candidate.name === value);
    for (const attribute of option?.required_participant_attributes ?? []) {
      if (!reasons.has(attribute)) reasons.set(attribute, `required when ${field} is ${value}`);
    }
  }
  return reasons;
}

/** The attributes a participant must fill in for these options; the wizard marks them required. */
export function requiredAttributes(
  available: TAvailableOptions,
  chosen: Pick<TParticipantOptions, "delivery_channel" | "two_step_authentication_method">,
): Set<TParticipantAttribute> {
  return new Set(requirements(available, chosen).keys());
}

function notOffered(field: keyof TParticipantOptions, kind: string, options: readonly Option<string>[]): TParticipantProblem {
  const message =
    options.length === 0
      ? `the template offers no ${kind}`
      : `must be one of the template's options: ${options.map((option) => option.name).join(", ")}`;
  return { path: [field], message, code: "option_not_offered" };
}

/** Everything wrong with a participant under a template's options; empty when it may be saved. */
export function participantProblems(available: TAvailableOptions, participant: TResolvedParticipant): TParticipantProblem[] {
  const problems: TParticipantProblem[] = [];
  if (!offered(available.delivery_channels, participant.delivery_channel)) {
    problems.push(notOffered("delivery_channel", "delivery channels", available.delivery_channels));
  }
  if (!offered(available.sign_methods, participant.sign_method)) {
    problems.push(notOffered("sign_method", "sign methods", available.sign_methods));
  }
  if (!offered(available.two_step_authentication_methods, participant.two_step_authentication_method)) {
    problems.push(
      notOffered("two_step_authentication_method", "two-step authentication methods", available.two_step_authentication_methods),
    );
  }
  for (const [attribute, reason] of requirements(available, participant)) {
    if (participant[attribute].trim() === "") {
      problems.push({ path: [attribute], message: reason, code: "participant_attribute_missing" });
    }
  }
  if (participant.signatory && !participant._permissions["contract:update"]) {
    problems.push({
      path: ["signatory"],
      message: 'a signatory must also have the "contract:update" permission',
      code: "signatory_requires_contract_update",
    });
  }
  return problems;
}
