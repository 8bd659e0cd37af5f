import { createHash } from "node:crypto";
import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { bodyProblems, type TBody } from "@/lib/domain/contract-document";
import { DomainError, summarize } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/permissions";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { lockVisibleContract } from "./lock-visible-contract";

export interface UpdateContractBodyOptions {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  request: { body: TBody };
  requestId?: string;
}

const digest = (body: unknown) => {
  const json = JSON.stringify(body);
  return { bytes: Buffer.byteLength(json), sha256: createHash("sha256").update(json).digest("hex") };
};

/**
 * Replaces a draft's text (docs/api.md "Documents and files"). Checks, in order: visible (404), writable (403), a
 * draft (409 `contract_text_frozen`: once published the text is what was signed), placeholders and
 * size (400, by path). One transaction with the audit event `contract.body_update`.
 */
export async function updateContractBody({ db, actor, contractId, request, requestId }: UpdateContractBodyOptions): Promise<void> {
  await db.$transaction(async (tx: Tx) => {
    const contract = await lockVisibleContract(tx, actor, contractId);
    assertCanWrite(actor, contract.workspaceId);
    if (contract.state !== "draft") {
      throw new DomainError("contract_text_frozen", `Contract ${contractId} is ${contract.state}; its text changes only while it is a draft.`);
    }
    const fields = await tx.contractDataField.findMany({ where: { contractId }, select: { customId: true } });
    const problems = bodyProblems(request.body, fields.map((f) => f.customId), "contract");
    if (Object.keys(problems).length > 0) throw new DomainError("validation_failed", summarize(problems), { parameterProblems: problems });
    await tx.contract.update({ where: { id: contractId }, data: { body: request.body as object, updatedAt: new Date() } });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract.body_update",
      entityType: "contract",
      entityId: contractId,
      contractId,
      requestId,
      before: { body: digest(contract.body) },
      after: { body: digest(request.body) },
    });
  });
}
