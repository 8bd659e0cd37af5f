// What db:restore and db:move print when they stop: one sentence that says what changed.
import { BackupRefusal, MigrationsFailed, RestoreFailedAfterSchema } from "./format.ts";

/**
 * The operator's sentence for `error`, thrown by a restore (`verb`) into a target that a failure
 * leaves in place unless `targetRemoved` (an embedded folder the command created and removed).
 */
export function restoreFailureMessage(error: unknown, { verb, targetRemoved }: { verb: "restore" | "move"; targetRemoved: boolean }): string {
  if (error instanceof MigrationsFailed) {
    const why = schemaEngineReason(error.message);
    const left = targetRemoved ? "nothing was left" : `the target may hold part of the schema: ${verb} into a new, empty database`;
    return `The ${verb} failed while applying the backup's migrations (${why}); ${left}.`;
  }
  const afterSchema = error instanceof RestoreFailedAfterSchema;
  const cause = afterSchema ? error.cause : error;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (afterSchema && !targetRemoved) {
    const kept = "the target keeps the backup's empty schema, which a restore accepts";
    return cause instanceof BackupRefusal ? `${message.replace(/\.$/, "")}; no rows were restored, and ${kept}.` : `The ${verb} failed and no rows were restored (${kept}): ${message}`;
  }
  return cause instanceof BackupRefusal ? message : `The ${verb} failed, nothing was changed: ${message}`;
}

/**
 * The reason in a schema engine error: its last line before the trace (`ERROR: function … already
 * exists`), and the migration it was applying.
 */
function schemaEngineReason(message: string): string {
  const lines = message.split("\n");
  const trace = lines.findIndex((line) => /^\s+\d+: /.test(line));
  const head = (trace < 0 ? lines : lines.slice(0, trace)).map((line) => line.trim()).filter((line) => line !== "" && line !== "external connector error");
  const reason = (head.at(-1) ?? "no reason given").replace(/^Error querying the database: /, "").replace(/\.$/, "");
  const migration = /migration_name="([^"]+)"/.exec(message)?.[1];
  return migration ? `migration ${migration}: ${reason}` : reason;
}
