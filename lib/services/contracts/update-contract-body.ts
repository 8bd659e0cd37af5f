import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { bodyProblems, type TBody } from "@/lib/domain/contract-document";
import { DomainError, summarize } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/access";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { bodyDigest } from "./body-digest";
import { lockVisibleContract } from "./lock-visible-contract";
import { now as clockNow } from "@/lib/clock";

export interface UpdateContractBodyOptions {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  request: { body: TBody };
  requestId?: string;
  /**
   * The versions of the text (`bodyDigest(body).sha256`) the caller's change was made against,
   * checked right after visibility; undefined when the caller named none (the last save wins).
   */
  expectedVersions?: readonly string[];
}

/** The text changed since the version the caller named (`expectedVersions`); `current` is its version now. */
export class StaleContractTextError extends DomainError {
  constructor(readonly current: string) {
    super("stale_if_match", "The contract's text changed since the version named in If-Match; fetch it again.");
  }
}

/**
 * Replaces a draft's text (docs/documents.md). Checks, in order: visible (404), the
 * version current (412), writable (403), a draft (409 `contract_text_frozen`: once published the
 * text is what was signed), placeholders and size (400, by path). One transaction with the audit event `contract.body_update`.
 */
export async function updateContractBody({ db, actor, contractId, request, requestId, expectedVersions }: UpdateContractBodyOptions): Promise<void> {
  await db.$transaction(async (tx: Tx) => {
    const contract = await lockVisibleContract(tx, actor, contractId);
    const before = bodyDigest(contract.body);
    if (expectedVersions !== undefined && !expectedVersions.includes(before.sha256)) throw new StaleContractTextError(before.sha256);
    assertCanWrite(actor, contract.workspaceId);
    if (contract.state !== "draft") {
      throw new DomainError("contract_text_frozen", `Contract ${contractId} is ${contract.state}; its text changes only while it is a draft.`);
    }
    const fields = await tx.contractDataField.findMany({ where: { contractId }, select: { customId: true } });
    const problems = bodyProblems(request.body, fields.map((f) => f.customId), "contract");
    if (Object.keys(problems).length > 0) throw new DomainError("validation_failed", summarize(problems), { parameterProblems: problems });
    await tx.contract.update({ where: { id: contractId }, data: { body: request.body as object, updatedAt: clockNow() } });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract.body_update",
      entityType: "contract",
      entityId: contractId,
      contractId,
      requestId,
      before: { body: before },
      after: { body: bodyDigest(request.body) },
    });
  });
}
