// Country names for the ISO 3166-1 codes the API accepts (lib/schemas/country-codes). English on
// the server and in the browser alike, so the server render and hydration agree.

import { COUNTRY_CODES } from "@/lib/schemas/country-codes";

const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** "Sweden" for "SE"; the code itself when the runtime has no name for it. */
export function countryName(code: string): string {
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Every accepted code with its name, sorted by name for a `<select>`. */
export const COUNTRY_OPTIONS: readonly { code: string; name: string }[] = [...COUNTRY_CODES]
  .map((code) => ({ code, name: countryName(code) }))
  .sort((a, b) => a.name.localeCompare(b.name, "en"));
