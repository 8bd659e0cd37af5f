import type { Tx } from "@/lib/db";
import { textProblems, type TBody } from "@/lib/domain/contract-document";
import { uploadedPdfProblems } from "@/lib/domain/placement";
import { publishProblems, type TReadinessProblem } from "@/lib/domain/publish-readiness";
import { loadAvailableOptions } from "@/lib/services/templates/load-available-options";

const READINESS_INCLUDE = {
  parties: { orderBy: { id: "asc" }, include: { participants: { orderBy: { id: "asc" } } } },
  template: { select: { signingPeriodDays: true } },
  dataFields: { select: { id: true, customId: true, name: true, value: true }, orderBy: { id: "asc" } },
  files: { where: { type: "contract", storageKey: { not: null } }, select: { id: true } },
  placements: { select: { kind: true, participantId: true, dataFieldId: true, page: true }, orderBy: { page: "asc" } },
} as const;

/**
 * The contract with its parties, participants and data fields as publishing checks them, and what
 * stands between it and publishing: the one check behind the readiness list and the publish itself.
 */
export async function loadPublishReadiness(tx: Tx, contractId: number) {
  const contract = await tx.contract.findUniqueOrThrow({ where: { id: contractId }, include: READINESS_INCLUDE });
  // The document is the uploaded PDF when there is one (docs/documents.md "Uploaded PDF"): then its
  // boxes are checked, and the template's text, which is not part of it, is not.
  const uploaded = contract.files.length > 0;
  const people = contract.parties.flatMap((party) => party.participants.map((p) => ({ id: p.id, name: p.name, party: party.name, signatory: p.signatory })));
  const problems: TReadinessProblem[] = [
    ...publishProblems(contract.state, contract.parties, await loadAvailableOptions(tx, contract.templateId), contract.signingOrder),
    ...(uploaded
      ? uploadedPdfProblems(people, contract.placements, new Map(contract.dataFields.map((f) => [f.id, f])))
      : textProblems(contract.body as unknown as TBody, contract.dataFields)),
  ];
  return { contract, problems };
}
