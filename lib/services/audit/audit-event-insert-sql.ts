import type { Sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { AUDIT_EVENT_COLUMNS, auditEventData, type TAuditEventFields } from "@/lib/services/audit/audit-event-data";

/**
 * The same event as an `INSERT … SELECT … FROM from` for a statement that writes the change itself
 * (a data-modifying CTE named `from`: one event per row it writes), with its values as parameters
 * of that statement. `workspaceId` must be given.
 */
export function auditEventInsertSql(from: string, options: TAuditEventFields & { workspaceId: number }): Sql {
  const entries = Object.entries(auditEventData(options)) as [keyof typeof AUDIT_EVENT_COLUMNS, unknown][];
  const columns = entries.map(([field]) => AUDIT_EVENT_COLUMNS[field][0]).join(", ");
  const values = entries.map(([field, value]) => {
    const type = AUDIT_EVENT_COLUMNS[field][1];
    return Prisma.sql`${type === "jsonb" ? JSON.stringify(value) : value}::${Prisma.raw(type)}`;
  });
  return Prisma.sql`INSERT INTO audit_events (${Prisma.raw(columns)}) SELECT ${Prisma.join(values, ", ")} FROM ${Prisma.raw(from)}`;
}
