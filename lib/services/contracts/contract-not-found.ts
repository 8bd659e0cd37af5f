import { DomainError } from "@/lib/domain/errors";

/** Not visible and not existing answer the same (docs/api.md "Permissions"). */
export function contractNotFound(contractId: number): DomainError {
  return new DomainError("resource_not_found", `Contract ${contractId} does not exist.`);
}
