import type { Tx } from "@/lib/db";
import { textProblems, type TBody } from "@/lib/domain/contract-document";
import { publishProblems, type TReadinessProblem } from "@/lib/domain/publish-readiness";
import { loadAvailableOptions } from "@/lib/services/templates/load-available-options";

const READINESS_INCLUDE = {
  parties: { orderBy: { id: "asc" }, include: { participants: { orderBy: { id: "asc" } } } },
  template: { select: { signingPeriodDays: true } },
  dataFields: { select: { customId: true, name: true, value: true } },
} as const;

/**
 * The contract with its parties, participants and data fields as publishing checks them, and what
 * stands between it and publishing: the one check behind the readiness list and the publish itself.
 */
export async function loadPublishReadiness(tx: Tx, contractId: number) {
  const contract = await tx.contract.findUniqueOrThrow({ where: { id: contractId }, include: READINESS_INCLUDE });
  const problems: TReadinessProblem[] = [
    ...publishProblems(contract.state, contract.parties, await loadAvailableOptions(tx, contract.templateId), contract.signingOrder),
    ...textProblems(contract.body as unknown as TBody, contract.dataFields),
  ];
  return { contract, problems };
}
