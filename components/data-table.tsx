// One accessible table for every list in the app: a real <table> with a caption, column headers,
// row headers, and sortable columns whose headers are buttons announcing their state (`aria-sort`).
// It holds no state: the caller owns the rows and the sort (in the URL, usually), so the table works
// as well for a server-rendered list as for a paginated query. (No "use client": a server component
// may render it too, as long as it passes no `onSort`.)

import { useId, type Key, type ReactNode } from "react";
import type { TSort } from "@/lib/client/url-state";
import { SkeletonRows } from "./states";

export interface TColumn<T> {
  /** Stable and unique within the table (React key). */
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable: the key handed to `onSort` and matched against `sort.key`. */
  sortKey?: string;
  /** The cell names its row (rendered as `<th scope="row">`): usually the first, "name" column. */
  isRowHeader?: boolean;
  /** Classes for the column's header and cells (width, alignment, wrapping). */
  className?: string;
}

export interface TDataTableProps<T> {
  /** Says what the table lists; announced with it. */
  caption: ReactNode;
  /** Hides the caption visually (when a heading right above already says the same). */
  hideCaption?: boolean;
  columns: readonly TColumn<T>[];
  /** `undefined` while the first load runs: skeleton rows stand in. */
  rows: readonly T[] | undefined;
  rowKey: (row: T) => Key;
  sort?: TSort | null;
  onSort?: (key: string) => void;
  /** The rows shown are about to be replaced (the next page is loading): dimmed and `aria-busy`. */
  busy?: boolean;
  /** How many skeleton rows to show while loading (the page size, so the layout does not jump). */
  skeletonRows?: number;
  /** Shown in one full-width cell when `rows` is empty. */
  empty?: ReactNode;
}

const cellClass = "px-3 py-2 text-left align-top";

export function DataTable<T>({
  caption,
  hideCaption = false,
  columns,
  rows,
  rowKey,
  sort = null,
  onSort,
  busy = false,
  skeletonRows = 5,
  empty = "Nothing to show.",
}: TDataTableProps<T>) {
  const captionId = useId();
  const loading = rows === undefined;
  return (
    // Focusable and labelled, so keyboard users can scroll a table wider than the screen (WCAG 2.1.1).
    <div role="region" aria-labelledby={captionId} tabIndex={0} className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table aria-busy={loading || busy ? true : undefined} className="min-w-full divide-y divide-slate-200 text-sm">
        <caption id={captionId} className={hideCaption ? "sr-only" : "px-3 py-2 text-left text-sm font-semibold text-slate-900"}>
          {caption}
        </caption>
        <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            {columns.map((column) => (
              <HeaderCell key={column.id} column={column} sort={sort} onSort={onSort} />
            ))}
          </tr>
        </thead>
        <tbody className={`divide-y divide-slate-100 ${busy ? "opacity-60 transition-opacity" : ""}`}>
          {loading ? (
            <SkeletonRows columns={columns.length} rows={skeletonRows} />
          ) : rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)} className="hover:bg-slate-50">
                {columns.map((column) =>
                  column.isRowHeader ? (
                    <th key={column.id} scope="row" className={`${cellClass} font-medium text-slate-900 ${column.className ?? ""}`}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={column.id} className={`${cellClass} text-slate-700 ${column.className ?? ""}`}>
                      {column.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            ))
          )}
        </tbody>
      </table>
      {loading ? (
        <p role="status" className="sr-only">
          Loading…
        </p>
      ) : null}
    </div>
  );
}

function HeaderCell<T>({ column, sort, onSort }: { column: TColumn<T>; sort: TSort | null; onSort?: (key: string) => void }) {
  const className = `${cellClass} whitespace-nowrap ${column.className ?? ""}`;
  const { sortKey } = column;
  if (sortKey === undefined || !onSort) {
    return (
      <th scope="col" className={className}>
        {column.header}
      </th>
    );
  }
  const direction = sort?.key === sortKey ? sort.direction : null;
  return (
    <th scope="col" aria-sort={direction ?? "none"} className={className}>
      <button
        type="button"
        onClick={() => onSort(sortKey)}
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase tracking-wide hover:text-slate-900"
      >
        {column.header}
        <SortIcon direction={direction} />
      </button>
    </th>
  );
}

/** Both arrows when unsorted (it can be sorted), one when sorted; `aria-sort` says it in words. */
function SortIcon({ direction }: { direction: TSort["direction"] | null }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 12 12" className="size-3 shrink-0 fill-current">
      {direction !== "descending" ? <path d="M6 1.5 9.5 5h-7z" opacity={direction ? 1 : 0.4} /> : null}
      {direction !== "ascending" ? <path d="M6 10.5 2.5 7h7z" opacity={direction ? 1 : 0.4} /> : null}
    </svg>
  );
}
