// How a counterparty and its participants sent in a request become rows: the one rule shared by
// contract creation (`parties`), adding a party and adding a participant (docs/api.md).
import { participantProblems, type TParticipantOptions } from "@/lib/domain/options";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TAvailableOptions, TCreateParticipantRequest, TCreatePartyRequest } from "@/lib/schemas";
import { prefixProblems, type TRuleProblem } from "@/lib/services/participants/build-participant-problems-error";

export type TParticipantData = Omit<Prisma.ParticipantCreateManyPartyInput, "createdAt" | "updatedAt">;

/** `a.b` from the parts that are not empty (a request's own root is ""). */
const joinPath = (...parts: string[]) => parts.filter(Boolean).join(".");

/**
 * One counterparty as rows to insert; its participants' rule problems are added to `problems` with
 * their request paths under `prefix` (`parties.0` on creation, "" for a party sent alone). An
 * individual party's name and number are its participant's (docs/api.md).
 */
export function counterpartyData(
  party: TCreatePartyRequest,
  prefix: string,
  available: TAvailableOptions,
  defaults: TParticipantOptions,
  problems: TRuleProblem[],
) {
  const people = party.type === "company" ? party.participants.map((p, i) => [`participants.${i}`, p] as const) : [["participant", party.participant] as const];
  const participants = people.map(([path, request]) => participantData(request, joinPath(prefix, path), available, defaults, problems));
  const first = participants[0];
  return {
    type: party.type,
    name: party.type === "company" ? party.name : (first?.name ?? ""),
    countryCode: party.country_code ?? "",
    identificationNumber: party.type === "company" ? (party.identification_number ?? "") : (first?.identificationNumber ?? ""),
    participants,
  };
}

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
    signState: "undecided",
    signStateUpdatedAt: null,
    deliveryStatus: "not_sent",
  } satisfies TParticipantData;
}
