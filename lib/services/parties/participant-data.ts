import { participantProblems, type TParticipantOptions } from "@/lib/domain/options";
import type { Participant } from "@/lib/generated/prisma/client";
import type { TAvailableOptions, TCreateParticipantRequest } from "@/lib/schemas";
import { type TWritableFields, writableFieldsOf } from "@/lib/schemas/field-table";
import { PARTICIPANT_FIELDS } from "@/lib/schemas/participant";
import type { TRuleProblem } from "@/lib/services/participants/build-participant-problems-error";
import { prefixProblems } from "@/lib/services/participants/prefix-problems";

/** What a new participant is made of: what a request may write, and who the service says it is. */
export const PARTICIPANT_DATA_FIELDS = [...writableFieldsOf(PARTICIPANT_FIELDS), "userId", "organizer"] as const;

export type TParticipantData = Pick<Participant, TWritableFields<typeof PARTICIPANT_FIELDS> | "userId" | "organizer">;

/**
 * A counterparty participant as a row to insert, its rule problems (under the template's options)
 * added to `problems` with the request path `prefix`.
 */
export function participantData(
  request: TCreateParticipantRequest,
  prefix: string,
  available: TAvailableOptions,
  defaults: TParticipantOptions,
  problems: TRuleProblem[],
): TParticipantData {
  const data = newParticipantData(request, defaults);
  const resolved = {
    delivery_channel: data.deliveryChannel,
    sign_method: data.signMethod,
    two_step_authentication_method: data.twoStepMethod,
    email: data.email,
    phone_number: data.phoneNumber,
    signatory: data.signatory,
    _permissions: { "contract:update": data.canUpdateContract },
  };
  problems.push(...prefixProblems(prefix, participantProblems(available, resolved)));
  return data;
}

/**
 * Omitted options take the template's defaults (the one shared function); `contract:update`
 * defaults to `signatory`, so a signatory sent without `_permissions` is valid.
 */
function newParticipantData(p: TCreateParticipantRequest, defaults: TParticipantOptions) {
  const signatory = p.signatory ?? false;
  return {
    name: p.name,
    title: p.title ?? "",
    email: p.email ?? "",
    phoneNumber: p.phone_number ?? "",
    identificationNumber: p.identification_number ?? "",
    deliveryChannel: p.delivery_channel ?? defaults.delivery_channel,
    signMethod: p.sign_method ?? defaults.sign_method,
    twoStepMethod: p.two_step_authentication_method ?? defaults.two_step_authentication_method,
    signatory,
    canUpdateContract: p._permissions?.["contract:update"] ?? signatory,
    signOrder: p.sign_order ?? null,
    userId: null,
    organizer: false,
  } satisfies TParticipantData;
}
