"use client";

import type { TAvailableOptions } from "@/lib/schemas/template";
import { CountryField } from "./country-field";
import { ParticipantEditor } from "./participant-editor";

/** An individual counterparty: exactly one participant, whose name and number are the party's. */
export function IndividualPartyFields({ index, available }: { index: number; available: TAvailableOptions }) {
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-3">
        <CountryField name={`parties.${index}.country_code`} />
      </div>
      <ParticipantEditor path={`parties.${index}.participant`} available={available} legend="Person" />
    </div>
  );
}
