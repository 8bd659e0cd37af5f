import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { assertCanWrite } from "@/lib/domain/access";
import { DomainError } from "@/lib/domain/errors";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";
import { placementNotFound } from "@/lib/services/not-found";
import { PLACEMENT_SELECT, type TPlacementRow } from "./placement-row";

export interface TPlacementContext {
  workspaceId: number;
  /** The uploaded PDF's page count. */
  pages: number;
  /** Everyone of the contract, and of them the signatories (id → name). */
  participants: ReadonlySet<number>;
  signatories: ReadonlyMap<number, string>;
  dataFields: ReadonlySet<number>;
}

/**
 * The first step of a change to a contract's boxes: the contract locked (404), the box asked for one
 * of its boxes (404, as a file of another contract is), writable (403), a draft (409
 * `contract_text_frozen`) whose document is an uploaded PDF (409 `contract_has_no_pdf`), and what a
 * box may name in it.
 */
export async function lockPlacementContext(tx: Tx, actor: Actor, contractId: number): Promise<TPlacementContext>;
export async function lockPlacementContext(tx: Tx, actor: Actor, contractId: number, placementId: number): Promise<TPlacementContext & { box: TPlacementRow }>;
export async function lockPlacementContext(tx: Tx, actor: Actor, contractId: number, placementId?: number): Promise<TPlacementContext & { box?: TPlacementRow }> {
  const contract = await lockVisibleContract(tx, actor, contractId);
  const box = placementId === undefined ? undefined : await tx.placement.findFirst({ where: { id: placementId, contractId }, select: PLACEMENT_SELECT });
  if (placementId !== undefined && !box) throw placementNotFound(contractId, placementId);
  assertCanWrite(actor, contract.workspaceId);
  if (contract.state !== "draft") {
    throw new DomainError("contract_text_frozen", `Contract ${contractId} is ${contract.state}; the boxes on its PDF change only while it is a draft.`);
  }
  const row = await tx.contract.findUniqueOrThrow({
    where: { id: contractId },
    select: {
      files: { where: { type: "contract" }, select: { storageKey: true, pages: true } },
      parties: { select: { participants: { select: { id: true, name: true, signatory: true } } } },
      dataFields: { select: { id: true } },
    },
  });
  const pdf = row.files.find((f) => f.storageKey !== null && f.pages !== null);
  if (!pdf) throw new DomainError("contract_has_no_pdf", `Contract ${contractId}'s document is its template's text: upload a PDF (upload_as=expanded_pdf) before placing boxes.`);
  const people = row.parties.flatMap((p) => p.participants);
  return {
    ...(box ? { box } : {}),
    workspaceId: contract.workspaceId,
    pages: pdf.pages!,
    participants: new Set(people.map((p) => p.id)),
    signatories: new Map(people.filter((p) => p.signatory).map((p) => [p.id, p.name])),
    dataFields: new Set(row.dataFields.map((f) => f.id)),
  };
}
