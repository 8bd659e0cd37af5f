import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import type { TContractReminderSettings } from "@/lib/schemas";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { contractReminderSettings } from "@/lib/services/reminders/contract-reminder-settings";

/** The contract's own settings (null: the workspace's) and the workspace's defaults. */
export async function getContractReminderSettings({ db, actor, contractId }: { db: Tx; actor: Actor; contractId: number }): Promise<TContractReminderSettings> {
  const contract = await findVisibleContract(db, actor, contractId);
  return contractReminderSettings(db, contract);
}
