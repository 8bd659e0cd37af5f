/**
 * How a page a statement writes is read: `direct` (the rows, in order, skipping `offset` of them)
 * or `deferred` (the ids along an index, then their rows). Measured with pgbench on the bench's
 * data set (docs/performance.md "A deep page skips ids, not rows"), the direct read answered more
 * pages a second up to offset 2,000, and fewer at 5,000; the cut sits below where the two cross,
 * where the direct read's gain is clear on any order and table.
 */
export type TPageForm = "direct" | "deferred";
export const DIRECT_PAGE_OFFSETS_BELOW = 1_000;
export function pageFormFor(offset: number): TPageForm {
  return offset < DIRECT_PAGE_OFFSETS_BELOW ? "direct" : "deferred";
}
