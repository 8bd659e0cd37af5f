import type { Tx } from "@/lib/db";

/**
 * Who the contract's own warnings go to (docs/lifecycle.md "Warnings and reminders"): the user of
 * its organizer participant, else the user who created it, each only while active; else nobody
 * (the anonymous admin's contracts have neither).
 */
export async function findContractOwner(tx: Tx, contract: { id: number; createdById: number | null }): Promise<{ id: number; name: string; email: string } | null> {
  const organizer = await tx.participant.findFirst({
    where: { organizer: true, party: { contractId: contract.id, myParty: true }, user: { is: { active: true } } },
    orderBy: { id: "asc" },
    select: { user: { select: { id: true, name: true, email: true } } },
  });
  if (organizer?.user) return organizer.user;
  if (contract.createdById === null) return null;
  return tx.user.findFirst({ where: { id: contract.createdById, active: true }, select: { id: true, name: true, email: true } });
}
