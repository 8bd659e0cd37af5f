// PUT …/participants/{id} as HTTP: `If-Match` → the versions the change may apply to, the change
// (lib/services) with the answer (lib/api/json) read in its statement, and the new ETag. A stale version is the 412 with
// the participant's current ETag, so the client can fetch it again.
import type { TParticipantRow } from "@/lib/services/participants/participant-row";
import { DomainError } from "@/lib/domain/errors";
import { StaleParticipantError, updateParticipant, type TParticipantUpdate, type UpdateParticipantOptions } from "@/lib/services/participants/update-participant";
import { participantAnswer, participantAnswerSql, participantEtag } from "@/lib/api/json/participant";
import { ifMatchVersions } from "@/lib/api/response";

export async function updateParticipantAnswer(
  request: Omit<UpdateParticipantOptions, "expectedVersions" | "linkOrigin" | "readBack"> & { origin: string; ifMatch: string | null },
): Promise<{ participant: TParticipantRow; answer: string; etag: string }> {
  const { db, actor, origin, contractId, participantId, ifMatch } = request;
  let update: TParticipantUpdate;
  try {
    update = await updateParticipant({
      ...request,
      expectedVersions: versionsOf(ifMatch, participantId),
      linkOrigin: origin,
      // The answer, read in the write's statement from the row it wrote: one round trip.
      readBack: (row) => participantAnswerSql(actor, origin, contractId, row),
    });
  } catch (error) {
    if (!(error instanceof StaleParticipantError)) throw error;
    throw new DomainError(error.key, error.message, { headers: { ETag: participantEtag(error.current) } });
  }
  // Nothing written, or written under locks (a new invitation): read the answer on its own.
  const answer = update.readBack ?? (await participantAnswer(db, actor, origin, contractId, participantId));
  return { participant: update.participant, answer, etag: participantEtag(update.participant) };
}

/** The versions of participant `id` that `If-Match` names (`ifMatchVersions`). */
function versionsOf(ifMatch: string | null, id: number): readonly number[] | undefined {
  return ifMatchVersions(ifMatch, `"p${id}-v`, /^\d{1,10}$/)?.map(Number);
}
