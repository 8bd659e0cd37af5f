import type { Actor } from "@/lib/domain/actor";
import { pageArgs } from "@/lib/services/page-args";
import { workspaceScope } from "@/lib/domain/permissions";
import { CONTRACT_SELECT, type TContractListRow } from "@/lib/services/contracts/contract-row";
import { PARTY_SUMMARY_SELECT, type TPartySummaryRow } from "@/lib/services/parties/party-row";
import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TContractListQuery, TContractSort } from "@/lib/schemas";

export interface ListContractsOptions {
  db: Tx;
  actor: Actor;
  query: TContractListQuery;
}

const SORT_COLUMNS = { id: "id", name: "name", created_time: "createdAt", updated_time: "updatedAt" } as const;

/**
 * `sort` as an order with `id` as tie-breaker in the same direction, so a page boundary never
 * splits or repeats equal values and `-x` is exactly the reverse of `x` (indexes `(x, id)` serve both).
 */
export function contractOrderBy(sort: TContractSort): Prisma.ContractOrderByWithRelationInput[] {
  const direction = sort.startsWith("-") ? "desc" : "asc";
  const column = SORT_COLUMNS[sort.replace(/^-/, "") as keyof typeof SORT_COLUMNS];
  return column === "id" ? [{ id: direction }] : [{ [column]: direction }, { id: direction }];
}

/**
 * One page of the contracts the actor may see, with each contract's parties as a summary. Three
 * queries whatever the page size: the page, the count, and the page's parties.
 */
export async function listContracts({ db, actor, query }: ListContractsOptions): Promise<{ count: number; rows: TContractListRow[] }> {
  const where: Prisma.ContractWhereInput = {
    AND: [
      workspaceScope(actor),
      query.workspace_id === undefined ? {} : { workspaceId: query.workspace_id },
      query.state === undefined ? {} : { state: query.state },
      // `contains` is LIKE underneath: `%`, `_` and `\` in the text are escaped to mean themselves.
      query.q === undefined ? {} : { name: { contains: query.q.replace(/[\\%_]/g, "\\$&"), mode: "insensitive" } },
    ],
  };
  const [count, contracts] = await Promise.all([
    db.contract.count({ where }),
    db.contract.findMany({ where, select: CONTRACT_SELECT, orderBy: contractOrderBy(query.sort), ...pageArgs(query) }),
  ]);
  if (contracts.length === 0) return { count, rows: [] };

  const parties = await db.party.findMany({
    where: { contractId: { in: contracts.map((c) => c.id) } },
    select: PARTY_SUMMARY_SELECT,
    orderBy: [{ contractId: "asc" }, { id: "asc" }],
  });
  const byContract = new Map<number, TPartySummaryRow[]>();
  for (const party of parties) {
    const list = byContract.get(party.contractId);
    if (list) list.push(party);
    else byContract.set(party.contractId, [party]);
  }
  return { count, rows: contracts.map((c) => ({ ...c, parties: byContract.get(c.id) ?? [] })) };
}
