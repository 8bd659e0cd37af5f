import type { Tx } from "@/lib/db";
import { CONTRACT_LIMITS } from "@/lib/schemas/limits";

/**
 * The limits one more participant in `party` would pass (docs/api.md "Creating a contract"), each
 * as a plain phrase, counting what is there: at most `participantsPerParty` in a party, and
 * `participantsPerContract` in the counterparties together (the owner side is not counted). Adding
 * one (staff) and handing a signature on (the signing page) both ask here.
 */
export async function participantLimitProblems(tx: Tx, party: { id: number; contractId: number; myParty: boolean }): Promise<string[]> {
  const [inParty, inAll] = await Promise.all([
    tx.participant.count({ where: { partyId: party.id } }),
    party.myParty ? Promise.resolve(0) : tx.participant.count({ where: { party: { contractId: party.contractId, myParty: false } } }),
  ]);
  const limits: string[] = [];
  if (inParty + 1 > CONTRACT_LIMITS.participantsPerParty) {
    limits.push(`a party can have at most ${CONTRACT_LIMITS.participantsPerParty} participants; it has ${inParty}`);
  }
  if (inAll + 1 > CONTRACT_LIMITS.participantsPerContract) {
    limits.push(`the counterparties can have at most ${CONTRACT_LIMITS.participantsPerContract} participants in all; they have ${inAll}`);
  }
  return limits;
}
