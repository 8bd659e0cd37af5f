import type { PrismaClient, Tx } from "@/lib/db";
import { now as clockNow } from "@/lib/clock";
import type { Actor } from "@/lib/domain/actor";
import { assertCanWrite } from "@/lib/domain/access";
import { DomainError, summarize } from "@/lib/domain/errors";
import { termProblems, type TTerm } from "@/lib/domain/lifecycle";
import type { Prisma } from "@/lib/generated/prisma/client";
import { CONTRACT_FIELDS } from "@/lib/schemas/contract";
import { auditValuesOf, sectionColumnsOf, sectionValuesOf } from "@/lib/schemas/field-table";
import type { TLifecycleSettingsRequest } from "@/lib/schemas/lifecycle";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";

/** The contract's fields answered in `lifecycle_settings` (the term). */
const TERM_FIELDS = Object.entries(CONTRACT_FIELDS)
  .filter(([, spec]) => (spec as { answer?: { in?: string } }).answer?.in === "lifecycle_settings")
  .map(([name]) => name);

/**
 * `PUT …/lifecycle_settings` (docs/lifecycle.md "Durations"): a draft's term, the settings given over
 * the ones stored (null clears one). Checks, under the contract's row lock: 404 → 403 (viewers) →
 * 409 `contract_not_editable` unless a draft (the signatories agree to the term as published) →
 * 400 naming each setting the merged term breaks a rule with, nothing stored. The same settings
 * write nothing; others are audited as `contract.lifecycle_settings_update` and move `updated_time`.
 */
export async function updateLifecycleSettings({
  db,
  actor,
  contractId,
  request,
  requestId,
}: {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  request: TLifecycleSettingsRequest;
  requestId?: string;
}): Promise<void> {
  await db.$transaction(async (tx: Tx) => {
    const contract = await lockVisibleContract(tx, actor, contractId);
    assertCanWrite(actor, contract.workspaceId);
    if (contract.state !== "draft") {
      throw new DomainError("contract_not_editable", `Contract ${contractId} is ${contract.state}; its duration settings were fixed when it was published.`);
    }
    const current = sectionValuesOf(CONTRACT_FIELDS, "lifecycle_settings", contract) as unknown as TTerm;
    const given = Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined));
    const term: TTerm = { ...current, ...given };
    const problems = termProblems(term);
    if (problems.length > 0) {
      const parameterProblems: Record<string, string[]> = {};
      for (const p of problems) (parameterProblems[p.path] ??= []).push(p.message);
      throw new DomainError("validation_failed", summarize(parameterProblems), { parameterProblems });
    }
    if ((Object.keys(term) as (keyof TTerm)[]).every((key) => term[key] === current[key])) return;
    const now = clockNow();
    const row = await tx.contract.update({
      where: { id: contractId },
      data: { ...(sectionColumnsOf(CONTRACT_FIELDS, "lifecycle_settings", term) as Prisma.ContractUpdateInput), updatedAt: now },
    });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract.lifecycle_settings_update",
      entityType: "contract",
      entityId: contractId,
      contractId,
      workspaceId: contract.workspaceId,
      requestId,
      before: auditValuesOf(CONTRACT_FIELDS, contract, TERM_FIELDS) as Prisma.InputJsonObject,
      after: auditValuesOf(CONTRACT_FIELDS, row, TERM_FIELDS) as Prisma.InputJsonObject,
    });
  });
}
