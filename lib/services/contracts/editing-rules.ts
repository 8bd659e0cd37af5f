// When a contract's parties and participants may change, and by whom: the rules every change to
// them checks first.
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/permissions";
import { EDITABLE_CONTRACT_STATES, type TContractState } from "@/lib/domain/enums";

type TEditedContract = { id: number; workspaceId: number; state: TContractState };

/**
 * May the actor change this contract's parties and participants now? 403 `role_cannot_write` for a
 * viewer, then 409 `contract_not_editable` once the contract is no longer draft or pending: a
 * viewer learns nothing from the state check.
 */
export function assertContractEditable(actor: Actor, contract: TEditedContract): void {
  assertCanWrite(actor, contract.workspaceId);
  if (!EDITABLE_CONTRACT_STATES.includes(contract.state)) {
    throw new DomainError(
      "contract_not_editable",
      `Contract ${contract.id} is ${contract.state}; its parties and participants can only change while it is ${EDITABLE_CONTRACT_STATES.join(" or ")}.`,
    );
  }
}

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
