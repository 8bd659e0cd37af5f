import type { Tx } from "@/lib/db";
import { DomainError } from "@/lib/domain/errors";
import { isTheirTurn } from "@/lib/domain/signing-order";
import type { Participant } from "@/lib/generated/prisma/client";

/** The contract's signatories as the signing order reads them. */
async function stageParticipants(tx: Tx, contractId: number) {
  return tx.participant.findMany({ where: { party: { contractId } }, select: { signatory: true, signOrder: true, signState: true } });
}

/**
 * 409 `not_your_turn` for a signatory of an ordered contract whose stage has not opened: the order
 * holds where the decision is made, whoever holds the link and whenever the mail went out.
 */
export async function assertTheirTurn(tx: Tx, contract: { id: number; signingOrder: "parallel" | "ordered" }, participant: Participant): Promise<void> {
  if (!isTheirTurn(contract.signingOrder, await stageParticipants(tx, contract.id), participant)) {
    throw new DomainError("not_your_turn", "It is not your turn yet: this contract is signed in order, and the people before you have not all signed. You will get an e-mail when it is your turn.");
  }
}
