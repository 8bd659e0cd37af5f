import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { CONTRACT_REMINDER_SELECT, type TContractReminderRow } from "./contract-reminder-row";

/** A contract's internal reminders, sent ones included, by date (404 when the contract is not visible). */
export async function listContractReminders({ db, actor, contractId }: { db: Tx; actor: Actor; contractId: number }): Promise<TContractReminderRow[]> {
  await findVisibleContract(db, actor, contractId);
  return db.contractReminder.findMany({ where: { contractId }, orderBy: [{ remindOn: "asc" }, { id: "asc" }], select: CONTRACT_REMINDER_SELECT });
}
