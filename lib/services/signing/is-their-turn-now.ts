import type { Tx } from "@/lib/db";
import { isTheirTurn } from "@/lib/domain/signing-order";
import type { Participant } from "@/lib/generated/prisma/client";

/** Whether the participant's stage has opened (always, on a parallel contract), as the contract's signatories stand now. */
export async function isTheirTurnNow(tx: Tx, contract: { id: number; signingOrder: "parallel" | "ordered" }, participant: Participant): Promise<boolean> {
  const signatories = await tx.participant.findMany({ where: { party: { contractId: contract.id } }, select: { signatory: true, signOrder: true, signState: true } });
  return isTheirTurn(contract.signingOrder, signatories, participant);
}
