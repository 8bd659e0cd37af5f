// How a counterparty and its participants sent in a request become rows: the one rule shared by
// contract creation (`parties`), adding a party and adding a participant (docs/api.md).
import type { TParticipantOptions } from "@/lib/domain/options";
import type { Party } from "@/lib/generated/prisma/client";
import type { TAvailableOptions, TCreatePartyRequest } from "@/lib/schemas";
import { type TWritableFields, writableFieldsOf } from "@/lib/schemas/field-table";
import { PARTY_FIELDS } from "@/lib/schemas/party";
import type { TRuleProblem } from "@/lib/services/participants/build-participant-problems-error";
import { participantData, type TParticipantData } from "@/lib/services/parties/participant-data";

/** What a new party row is made of: what a request may write (lib/schemas/party.ts `write`), and which side it is on. */
export const PARTY_DATA_FIELDS = [...writableFieldsOf(PARTY_FIELDS), "myParty"] as const;

/** A new party and its people, in the order they are added. */
export type TPartyData = Pick<Party, TWritableFields<typeof PARTY_FIELDS> | "myParty"> & { participants: TParticipantData[] };

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
): TPartyData {
  const people = party.type === "company" ? party.participants.map((p, i) => [`participants.${i}`, p] as const) : [["participant", party.participant] as const];
  const participants = people.map(([path, request]) => participantData(request, joinPath(prefix, path), available, defaults, problems));
  const first = participants[0];
  return {
    type: party.type,
    name: party.type === "company" ? party.name : (first?.name ?? ""),
    countryCode: party.country_code ?? "",
    identificationNumber: party.type === "company" ? (party.identification_number ?? "") : (first?.identificationNumber ?? ""),
    myParty: false,
    participants,
  };
}
