// When a contract's parties and participants may be added or removed, and by whom: the rule those
// changes check first (what a participant's update checks sits with the update).
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/access";
import type { TContractState } from "@/lib/domain/enums";

type TEditedContract = { id: number; workspaceId: number; state: TContractState };

/**
 * May the actor add or remove parties and participants now? 403 `role_cannot_write` for a viewer,
 * then 409 `contract_not_draft` unless the contract is a draft (docs/api.md "Adding and removing parties and participants").
 */
export function assertDraftWritable(actor: Actor, contract: TEditedContract, what: string): void {
  assertCanWrite(actor, contract.workspaceId);
  if (contract.state !== "draft") {
    throw new DomainError("contract_not_draft", `Contract ${contract.id} is ${contract.state}; ${what} only while it is a draft.`);
  }
}
