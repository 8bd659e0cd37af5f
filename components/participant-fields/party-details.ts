import { countryName } from "./countries";

type TPartyLike = { type: "company" | "individual"; country_code: string; identification_number?: string };

/** "Company · Norway · Reg. no. 998877665": a party in one line, for the wizard's review and the contract page. */
export function partyDetails(party: TPartyLike): string {
  return [
    party.type === "company" ? "Company" : "Individual",
    party.country_code ? countryName(party.country_code) : null,
    // An individual's number is its participant's, shown with the participant.
    party.type === "company" && party.identification_number ? `Reg. no. ${party.identification_number}` : null,
  ]
    .filter(Boolean)
    .join(" · ");
}
