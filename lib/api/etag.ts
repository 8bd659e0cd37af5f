// Entity tags (RFC 9110 8.8.3) of the answers that carry one, derived from the row's `version`,
// which every change increments, so a tag names the stored state. Strong, because `If-Match`
// compares strongly; what varies per caller (`my_participant`) is not state.
import { DomainError } from "@/lib/domain/errors";
import { StaleParticipantError } from "@/lib/services/participants/update-participant";

/** The participant's ETag (GET, POST and PUT answer it; PUT compares `If-Match` with it). */
export function participantEtag(row: { id: number; version: number }): string {
  return `"p${row.id}-v${row.version}"`;
}

/**
 * The versions of participant `id` that `If-Match` names, for the update's version check:
 * undefined when there is no header or it is `*` (any version). Tags are compared strongly, so a
 * weak tag (`W/"…"`) names nothing; an empty or unparsable header names nothing either: a client
 * that meant to send a tag but sent garbage must not overwrite someone else's change.
 */
export function participantVersionsOf(ifMatch: string | null, id: number): readonly number[] | undefined {
  if (ifMatch === null || ifMatch.trim() === "*") return undefined;
  const prefix = `"p${id}-v`;
  const versions: number[] = [];
  for (const raw of ifMatch.split(",")) {
    const tag = raw.trim();
    if (!tag.startsWith(prefix) || !tag.endsWith('"')) continue;
    const digits = tag.slice(prefix.length, -1);
    if (/^\d{1,10}$/.test(digits)) versions.push(Number(digits));
  }
  return versions;
}

/** The 412 of a stale update, with the participant's current ETag so the client can fetch it again. */
export function withCurrentEtag(error: unknown): unknown {
  if (!(error instanceof StaleParticipantError)) return error;
  return new DomainError(error.key, error.message, { headers: { ETag: participantEtag(error.current) } });
}
