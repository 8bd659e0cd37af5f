// How every route under /v1/contracts/{contract_id} finds what it works on: a contract the actor
// may not see is not found (docs/api.md "Permissions": no existence leak).
import type { Actor } from "@/lib/domain/actor";
import { workspaceScope } from "@/lib/domain/access";
import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { contractNotFound } from "@/lib/services/not-found";

// `{}` (no relations) by default; the row type follows the include given.
type TContractWith<I extends Prisma.ContractInclude> = Prisma.ContractGetPayload<{ include: I }>;

/** The contract, if the actor may see it; else a 404 `resource_not_found`. */
export async function findVisibleContract<I extends Prisma.ContractInclude = {}>(
  db: Tx,
  actor: Actor,
  contractId: number,
  include?: I,
): Promise<TContractWith<I>> {
  const contract = await db.contract.findFirst({ where: { id: contractId, ...workspaceScope(actor) }, include });
  if (!contract) throw contractNotFound(contractId);
  return contract as TContractWith<I>;
}
