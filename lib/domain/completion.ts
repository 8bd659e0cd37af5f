// When a pending contract is signed (docs/signing.md "Links and the signing page"). Publishing checks the
// same shape first, but what happens between publishing and the last signature must not matter:
// the last signature checks it again, in its own transaction. Pure: no I/O.

export interface TCompletionParty {
  myParty: boolean;
  participants: readonly { signatory: boolean; signState: string }[];
}

/** A party someone signs for: at least one of its participants is a signatory. */
export function hasSignatory(party: { participants: readonly { signatory: boolean }[] }): boolean {
  return party.participants.some((participant) => participant.signatory);
}

/**
 * Signed: the contract has a counterparty, every counterparty has a signatory, and every signatory
 * (the owner side's too) has signed.
 */
export function isFullySigned(parties: readonly TCompletionParty[]): boolean {
  const counterparties = parties.filter((party) => !party.myParty);
  return (
    counterparties.length > 0 &&
    counterparties.every(hasSignatory) &&
    parties.every((party) => party.participants.every((participant) => !participant.signatory || participant.signState === "signed"))
  );
}
