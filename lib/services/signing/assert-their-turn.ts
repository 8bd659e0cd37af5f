import type { Tx } from "@/lib/db";
import { DomainError } from "@/lib/domain/errors";
import type { Participant } from "@/lib/generated/prisma/client";
import { isTheirTurnNow } from "./is-their-turn-now";

/**
 * 409 `not_your_turn` for a signatory of an ordered contract whose stage has not opened: the order
 * holds where the decision is made, whoever holds the link and whenever the mail went out.
 */
export async function assertTheirTurn(tx: Tx, contract: { id: number; signingOrder: "parallel" | "ordered" }, participant: Participant): Promise<void> {
  if (!(await isTheirTurnNow(tx, contract, participant))) {
    throw new DomainError("not_your_turn", "It is not your turn yet: this contract is signed in order, and the people before you have not all signed. You will get an e-mail when it is your turn.");
  }
}
