// What a view shows while its data loads, when there is none, and when loading failed. One look for
// these everywhere, so a user learns them once.

import type { ReactNode } from "react";

const pulse = "animate-pulse rounded bg-slate-200";

/** Placeholder rows for a table's `<tbody>` while its rows load; hidden from assistive technology. */
export function SkeletonRows({ columns, rows = 5 }: { columns: number; rows?: number }) {
  return Array.from({ length: rows }, (_, row) => (
    <tr key={row} aria-hidden="true">
      {Array.from({ length: columns }, (_, column) => (
        <td key={column} className="px-3 py-3">
          {/* Varied widths read as text to come, not as a grid of boxes. */}
          <div className={`h-4 ${pulse} ${column === 0 ? "w-3/4" : (row + column) % 3 === 0 ? "w-1/3" : "w-1/2"}`} />
        </td>
      ))}
    </tr>
  ));
}

/** A loading placeholder for anything that is not a table: a few bars and a label for screen readers. */
export function LoadingState({ label = "Loading…", lines = 3 }: { label?: string; lines?: number }) {
  return (
    <div role="status" aria-live="polite" className="space-y-3 py-2">
      <span className="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} aria-hidden="true" className={`h-5 ${pulse} ${i % 2 === 0 ? "w-2/3" : "w-1/2"}`} />
      ))}
    </div>
  );
}

/** Nothing to show: what that means, and (in `children`) what the user can do about it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="px-4 py-10 text-center">
      <p className="text-sm font-semibold text-slate-900">{title}</p>
      {children ? <div className="mt-2 text-sm text-slate-600">{children}</div> : null}
    </div>
  );
}

/**
 * Loading failed: the reason the API gave (RequestError carries its `detail`) and a Retry button.
 * `role="alert"` announces it, since the failure may come long after the user's action.
 */
export function ErrorState({
  title = "Could not load this.",
  error,
  onRetry,
  retrying = false,
}: {
  title?: string;
  error: Error | null;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-semibold">{title}</p>
      {error?.message ? <p className="mt-1">{error.message}</p> : null}
      {onRetry ? (
        <button
          type="button"
          onClick={onRetry}
          disabled={retrying}
          className="mt-3 rounded-md border border-red-300 bg-white px-3 py-1.5 font-medium text-red-800 hover:bg-red-100 disabled:opacity-60"
        >
          {retrying ? "Retrying…" : "Retry"}
        </button>
      ) : null}
    </div>
  );
}
