// What db:restore and db:move print when they stop: one sentence that says what changed.
import { BackupRefusal, RestoreFailedAfterSchema } from "./format.ts";

/**
 * The operator's sentence for `error`, thrown by a restore (`verb`) into a target that a failure
 * leaves in place unless `targetRemoved` (an embedded folder the command created and removed).
 */
export function restoreFailureMessage(error: unknown, { verb, targetRemoved }: { verb: "restore" | "move"; targetRemoved: boolean }): string {
  const afterSchema = error instanceof RestoreFailedAfterSchema;
  const cause = afterSchema ? error.cause : error;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (afterSchema && !targetRemoved) {
    const kept = "the target keeps the backup's empty schema, which a restore accepts";
    return cause instanceof BackupRefusal ? `${message.replace(/\.$/, "")}; no rows were restored, and ${kept}.` : `The ${verb} failed and no rows were restored (${kept}): ${message}`;
  }
  return cause instanceof BackupRefusal ? message : `The ${verb} failed, nothing was changed: ${message}`;
}
