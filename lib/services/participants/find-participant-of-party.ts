import type { Tx } from "@/lib/db";
import type { Participant } from "@/lib/generated/prisma/client";
import { participantNotFound } from "@/lib/services/not-found";

/** The participant, if it is one of this party's (check the party's contract first); else a 404. */
export async function findParticipantOfParty(db: Tx, partyId: number, participantId: number): Promise<Participant> {
  const participant = await db.participant.findFirst({ where: { id: participantId, partyId } });
  if (!participant) throw participantNotFound(partyId, participantId);
  return participant;
}
