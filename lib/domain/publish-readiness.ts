// Whether a draft can be published (docs/signing.md "Publishing"): what POST …/publish
// refuses with and what the contract page's checklist names. Pure: no I/O.
import { DEFAULT_CHANNEL_REQUIREMENTS, DEFAULT_TWO_STEP_REQUIREMENTS, type TContractState, type TDeliveryChannel, type TSigningOrder, type TParticipantAttribute, type TSignMethod, type TTwoStepMethod } from "@/lib/domain/enums";
import { hasSignatory } from "@/lib/domain/completion";
import { participantProblems, type TAvailableOptions, type TParticipantProblem } from "@/lib/domain/options";
import { signOrderProblems } from "@/lib/domain/signing-order";

export interface TReadinessParticipant {
  id: number;
  name: string;
  email: string;
  phoneNumber: string;
  deliveryChannel: TDeliveryChannel;
  signMethod: TSignMethod;
  twoStepMethod: TTwoStepMethod;
  signatory: boolean;
  canUpdateContract: boolean;
  signOrder: number | null;
}

export interface TReadinessParty {
  id: number;
  name: string;
  myParty: boolean;
  participants: TReadinessParticipant[];
}

export interface TReadinessProblem {
  /** The attribute at fault, as in `parameter_problems`: `parties.1.participants.0.email`. */
  path: string;
  /** Names the party or participant, so a checklist line says enough on its own. */
  message: string;
  partyId: number | null;
  participantId: number | null;
  /** The data field the text needs a value for (path `data_fields.<custom_id>`): the page names it by its name. */
  missingDataField?: { customId: string; name: string };
}

/** Sign methods this deployment performs itself; the others (eID and the like) need a provider. */
export const SUPPORTED_SIGN_METHODS: readonly TSignMethod[] = ["standard_esign"];

const SIGN_METHOD_NEEDS: Partial<Record<TSignMethod, TParticipantAttribute[]>> = { sms: ["phone_number"] };
const ATTRIBUTE_WORDS: Record<TParticipantAttribute, string> = { email: "an e-mail address", phone_number: "a phone number" };

/**
 * Every reason the contract cannot be published now, in the order of its parties (owner side first,
 * as GET /v1/contracts/{id} lists them); empty when it can.
 */
export function publishProblems(
  state: TContractState,
  parties: readonly TReadinessParty[],
  available: TAvailableOptions,
  signingOrder: TSigningOrder = "parallel",
): TReadinessProblem[] {
  const problems: TReadinessProblem[] = [];
  if (state !== "draft") {
    problems.push({ path: "state", message: `The contract is ${state}; only a draft can be published.`, partyId: null, participantId: null });
  }
  if (!parties.some((party) => !party.myParty)) {
    problems.push({ path: "parties", message: "The contract has no counterparty.", partyId: null, participantId: null });
  }
  parties.forEach((party, p) => {
    if (!party.myParty && !hasSignatory(party)) {
      problems.push({ path: `parties.${p}.participants`, message: `${party.name} has no signatory.`, partyId: party.id, participantId: null });
    }
    party.participants.forEach((participant, i) => {
      const seen = new Set<string>();
      const add = (attribute: string, what: string) => {
        const path = `parties.${p}.participants.${i}.${attribute}`;
        if (seen.has(path)) return;
        seen.add(path);
        problems.push({ path, message: `${participant.name} (${party.name}): ${what}.`, partyId: party.id, participantId: participant.id });
      };
      const resolved = {
        delivery_channel: participant.deliveryChannel,
        sign_method: participant.signMethod,
        two_step_authentication_method: participant.twoStepMethod,
        email: participant.email,
        phone_number: participant.phoneNumber,
        signatory: participant.signatory,
        _permissions: { "contract:update": participant.canUpdateContract },
      };
      // A participant who does not sign never uses a sign method or two-step authentication (the
      // organizer gets the service's own choice of them, which the template may not offer).
      const signingOnly = (problem: TParticipantProblem) =>
        problem.path[0] === "sign_method" ||
        problem.path[0] === "two_step_authentication_method" ||
        (problem.code === "participant_attribute_missing" && problem.message.includes("two_step_authentication_method"));
      for (const problem of participantProblems(available, resolved)) {
        if (participant.signatory || !signingOnly(problem)) add(problem.path.join("."), problem.message);
      }
      // What the chosen channel and methods need to work at all, whatever the template says.
      const needs: [TParticipantAttribute, string][] = [
        ...DEFAULT_CHANNEL_REQUIREMENTS[participant.deliveryChannel].map((a): [TParticipantAttribute, string] => [a, `delivery channel ${participant.deliveryChannel}`]),
        ...(participant.signatory ? (DEFAULT_TWO_STEP_REQUIREMENTS[participant.twoStepMethod] ?? []) : []).map((a): [TParticipantAttribute, string] => [a, `two-step authentication by ${participant.twoStepMethod}`]),
        ...(participant.signatory ? (SIGN_METHOD_NEEDS[participant.signMethod] ?? []) : []).map((a): [TParticipantAttribute, string] => [a, `sign method ${participant.signMethod}`]),
      ];
      for (const [attribute, reason] of needs) {
        const value = attribute === "email" ? participant.email : participant.phoneNumber;
        if (value.trim() === "") add(attribute, `${ATTRIBUTE_WORDS[attribute]} is needed for ${reason}`);
      }
    });
  });
  // The stages are the contract's, across its parties.
  const everyone = parties.flatMap((party, p) => party.participants.map((participant, i) => ({ party, participant, path: `parties.${p}.participants.${i}.sign_order` })));
  for (const problem of signOrderProblems(signingOrder, everyone.map((e) => e.participant))) {
    const { party, participant, path } = everyone[problem.index]!;
    problems.push({ path, message: `${participant.name} (${party.name}): sign_order ${problem.message}.`, partyId: party.id, participantId: participant.id });
  }
  return problems;
}
