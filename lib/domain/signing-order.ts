// Signing order (docs/signing.md "Signing order"): on an `ordered` contract the signatories sign in
// stages by their `sign_order`, and signatories sharing a number sign in parallel. The stage that is
// open is derived from the signatures themselves, never stored, so the signing page, the decision
// and the invitations cannot disagree about whose turn it is. Pure: no I/O.
import type { TSigningOrder } from "@/lib/domain/enums";

export interface TStageParticipant {
  signatory: boolean;
  signOrder: number | null;
  signState: string;
}

/**
 * The open stage: the lowest `sign_order` of a signatory who has not signed; null on a parallel
 * contract or when every signatory signed.
 */
export function openStage(order: TSigningOrder, participants: readonly TStageParticipant[]): number | null {
  if (order !== "ordered") return null;
  let lowest: number | null = null;
  for (const p of participants) {
    if (!p.signatory || p.signState === "signed" || p.signOrder === null) continue;
    if (lowest === null || p.signOrder < lowest) lowest = p.signOrder;
  }
  return lowest;
}

/**
 * Whether the participant may act now: always on a parallel contract and for a participant who does
 * not sign; on an ordered one, a signatory whose stage is open.
 */
export function isTheirTurn(order: TSigningOrder, participants: readonly TStageParticipant[], participant: TStageParticipant): boolean {
  if (order !== "ordered" || !participant.signatory) return true;
  return participant.signOrder !== null && participant.signOrder === openStage(order, participants);
}

/** Whether publishing invites the participant itself; an ordered contract's signatories are invited when their stage opens. */
export function invitedAtPublishing(order: TSigningOrder, participant: { signatory: boolean }): boolean {
  return order !== "ordered" || !participant.signatory;
}

export interface TOrderProblem {
  /** Index of the participant in the list checked. */
  index: number;
  message: string;
}

/**
 * What is wrong with an ordered contract's numbering: every signatory needs a `sign_order`, and the
 * numbers used must be 1, 2, … without a gap. Empty for a parallel contract, whose numbers are kept
 * but not used.
 */
export function signOrderProblems(order: TSigningOrder, participants: readonly { signatory: boolean; signOrder: number | null }[]): TOrderProblem[] {
  if (order !== "ordered") return [];
  const problems: TOrderProblem[] = [];
  const used = new Set<number>();
  participants.forEach((p, index) => {
    if (!p.signatory) return;
    if (p.signOrder === null) problems.push({ index, message: "is needed: the contract is signed in order, so every signatory needs a sign_order (1 signs first)" });
    else used.add(p.signOrder);
  });
  const highest = Math.max(0, ...used);
  const missing = Array.from({ length: highest }, (_, i) => i + 1).filter((n) => !used.has(n));
  if (missing.length > 0) {
    participants.forEach((p, index) => {
      if (p.signatory && p.signOrder !== null && p.signOrder > missing[0]!) {
        problems.push({ index, message: `leaves a gap: no signatory has sign_order ${missing.join(", ")}; number the stages 1, 2, … without gaps` });
      }
    });
  }
  return problems;
}
