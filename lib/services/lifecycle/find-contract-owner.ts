import type { Tx } from "@/lib/db";

/**
 * Who the contract's own warnings go to (docs/lifecycle.md "Warnings and reminders"): the user of
 * its organizer participant, else the user who created it, each only while active and able to see
 * the contract's workspace (an administrator, or a member of it: as internal reminders are checked
 * when sent); else nobody (the anonymous admin's contracts have neither).
 */
export async function findContractOwner(tx: Tx, contract: { id: number; createdById: number | null; workspaceId: number }): Promise<{ id: number; name: string; email: string } | null> {
  const mayRead = { active: true, OR: [{ isAdmin: true }, { memberships: { some: { workspaceId: contract.workspaceId } } }] };
  const organizer = await tx.participant.findFirst({
    where: { organizer: true, party: { contractId: contract.id, myParty: true }, user: { is: mayRead } },
    orderBy: { id: "asc" },
    select: { user: { select: { id: true, name: true, email: true } } },
  });
  if (organizer?.user) return organizer.user;
  if (contract.createdById === null) return null;
  return tx.user.findFirst({ where: { id: contract.createdById, ...mayRead }, select: { id: true, name: true, email: true } });
}
