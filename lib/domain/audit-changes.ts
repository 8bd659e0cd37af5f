// An audit event's before/after JSON (lib/services/audit/write-audit-event.ts) as the list of
// changed attributes the API shows (docs/events.md).

export type TJson = string | number | boolean | null | TJson[] | { [key: string]: TJson };
export interface TFieldChange {
  /** The attribute's API name; a nested one dotted (`_permissions.contract:update`). */
  field: string;
  /** null where the attribute had no value (a creation), or has none now (a deletion). */
  from: TJson;
  to: TJson;
}

const isObject = (value: unknown): value is Record<string, TJson> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Nested objects become dotted names; lists and scalars are values as they are. */
function flatten(value: unknown, prefix = "", into = new Map<string, TJson>()): Map<string, TJson> {
  if (value === undefined || value === null) return into;
  if (!isObject(value)) {
    into.set(prefix || "value", value as TJson);
    return into;
  }
  for (const [key, inner] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isObject(inner) && Object.keys(inner).length > 0) flatten(inner, name, into);
    else into.set(name, inner === undefined ? null : inner);
  }
  return into;
}

/** Equal as JSON, whatever the key order of objects inside lists. */
function sameJson(a: TJson, b: TJson): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]!));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key]!, b[key]!));
  }
  return false;
}

/**
 * Each attribute whose value differs between `before` and `after`, in the order they were written
 * (before's attributes first, then those only after has). A missing side counts as null.
 */
export function auditChanges(before: unknown, after: unknown): TFieldChange[] {
  const from = flatten(before);
  const to = flatten(after);
  const fields = [...new Set([...from.keys(), ...to.keys()])];
  const changes: TFieldChange[] = [];
  for (const field of fields) {
    const a = from.has(field) ? from.get(field)! : null;
    const b = to.has(field) ? to.get(field)! : null;
    if (!sameJson(a, b)) changes.push({ field, from: a, to: b });
  }
  return changes;
}
