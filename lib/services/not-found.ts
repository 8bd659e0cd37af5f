// The 404s of the paths under /v1/contracts/{contract_id}, written once for every reader of those
// paths. Not visible and not existing answer the same (docs/api.md "Permissions": no existence
// leak); a party or participant that belongs elsewhere is not found either.
import { DomainError } from "@/lib/domain/errors";
import type { TDataFieldRef } from "@/lib/schemas";

export function contractNotFound(contractId: number): DomainError {
  return new DomainError("resource_not_found", `Contract ${contractId} does not exist.`);
}

export function partyNotFound(contractId: number, partyId: number): DomainError {
  return new DomainError("resource_not_found", `Contract ${contractId} has no party ${partyId}.`);
}

export function participantNotFound(partyId: number, participantId: number): DomainError {
  return new DomainError("resource_not_found", `Party ${partyId} has no participant ${participantId}.`);
}

export function dataFieldNotFound(contractId: number, ref: TDataFieldRef): DomainError {
  const name = "id" in ref ? String(ref.id) : `with custom id ${JSON.stringify(ref.customId)}`;
  return new DomainError("resource_not_found", `Contract ${contractId} has no data field ${name}.`);
}

export function fileNotFound(contractId: number, fileId: number): DomainError {
  return new DomainError("resource_not_found", `Contract ${contractId} has no file ${fileId}.`);
}

export function placementNotFound(contractId: number, placementId: number): DomainError {
  return new DomainError("resource_not_found", `Contract ${contractId} has no box ${placementId} on its PDF.`);
}
