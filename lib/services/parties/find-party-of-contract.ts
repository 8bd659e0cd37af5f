import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { partyNotFound } from "@/lib/services/not-found";

type TPartyWith<I extends Prisma.PartyInclude> = Prisma.PartyGetPayload<{ include: I }>;

/** The party, if it is one of this contract's (check the contract's visibility first); else a 404. */
export async function findPartyOfContract<I extends Prisma.PartyInclude = {}>(db: Tx, contractId: number, partyId: number, include?: I): Promise<TPartyWith<I>> {
  const party = await db.party.findFirst({ where: { id: partyId, contractId }, include });
  if (!party) throw partyNotFound(contractId, partyId);
  return party as TPartyWith<I>;
}
