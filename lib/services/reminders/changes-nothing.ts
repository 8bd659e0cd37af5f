/** Whether writing `columns` would change nothing of `row` (the same values, or none: then nothing is written or audited). */
export function changesNothing(columns: object, row: object): boolean {
  return Object.entries(columns).every(([column, value]) => (row as Record<string, unknown>)[column] === value);
}
