// Who may hand their signature on from the signing page (docs/signing.md "Delegation"): decided
// here once, for the handover itself (lib/services/signing/delegate-by-link.ts, which also counts
// the participant limits) and for the page, which offers it where these rules allow.
import { DomainError } from "./errors";
import { twoStepLockedError } from "./two-step";

export interface TDelegator {
  signatory: boolean;
  signState: string;
  twoStepMethod: string;
  twoStepLockedAt: Date | null;
}

/**
 * Why this participant may not hand on now, or null when they may: the contract must allow it, a
 * company's (or the owner side's) undecided signatory only (a private individual is their own
 * party), never with an SMS code (a delegate named by e-mail cannot receive one), and with an
 * e-mailed code only in their turn and while their link is not locked: they confirm the handover
 * with the code, as they would sign, so a leaked link buys no way around it.
 */
export function delegationRefusal(contract: { delegationAllowed: boolean }, party: { type: string }, participant: TDelegator, theirTurn: boolean): DomainError | null {
  if (!contract.delegationAllowed) return new DomainError("delegation_not_allowed", "This contract does not let its signatories hand their signature on; ask the contract's owner instead.");
  if (!participant.signatory) return new DomainError("delegation_not_allowed", "You receive this contract to read; only a signatory can hand their signature on.");
  if (party.type === "individual") return new DomainError("delegation_not_allowed", "You take part as a private individual, so only you can sign; ask the contract's owner if someone else should.");
  if (participant.signState !== "undecided") return new DomainError("already_decided", `You have already ${participant.signState}; your decision can no longer be handed on.`);
  if (participant.twoStepMethod === "sms") {
    return new DomainError("delegation_not_allowed", "Your signature needs a code by SMS, which a delegate named by e-mail cannot receive; ask the contract's owner to change the signatory instead.");
  }
  if (participant.twoStepMethod === "email") {
    if (participant.twoStepLockedAt !== null) return twoStepLockedError();
    if (!theirTurn) {
      return new DomainError("not_your_turn", "It is not your turn yet: your signature needs an e-mailed code, which you can ask for once the people before you have signed; you can hand it on then.");
    }
  }
  return null;
}
