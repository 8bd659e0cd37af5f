"use client";

// Paging for any /v1 list: "Showing 26–50 of 200", previous / numbered / next links, and a page-size
// select. Pages are real links to URLs carrying the list's whole state (`hrefFor`), so they can be
// opened in a new tab, bookmarked, and stepped back through.

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId } from "react";
import { API_MAX_OFFSET } from "@/lib/client/v1";

export const PAGE_SIZES = [10, 25, 50, 100] as const;

export type TPageRef = { limit: number; offset: number };

export interface TPaginationProps {
  /** The list's total (`count` of the answer), after filters and permissions. */
  count: number;
  /** The page shown: `limit` and `offset` of the answer whose rows are on screen. */
  limit: number;
  offset: number;
  /** The URL of another page of the same list (its filters and sort kept). */
  hrefFor: (page: TPageRef) => string;
  pageSizes?: readonly number[];
  /** Plural noun for the summary: "Showing 1–25 of 200 contracts". */
  itemLabel?: string;
  /** Names the navigation landmark; give each one its own when a page has several lists. */
  label?: string;
}

type TPageItem = { index: number } | { gap: "start" | "end" };

/**
 * Page indexes (0-based) to link: the first and the last page, the current one with `siblings` on
 * each side, and "…" gaps. The number of items stays the same wherever the current page is (the
 * links do not jump about while paging), and a gap never hides just one page.
 */
export function pageWindow(current: number, pageCount: number, siblings = 1): TPageItem[] {
  const slots = 2 * siblings + 5; // first, gap, siblings and current, gap, last
  if (pageCount <= slots) return Array.from({ length: pageCount }, (_, index) => ({ index }));
  const last = pageCount - 1;
  // The middle run, shifted inwards near either end so it never touches the first or last page.
  const start = Math.max(2, Math.min(current - siblings, last - 2 - 2 * siblings));
  const end = Math.min(last - 2, Math.max(current + siblings, 2 + 2 * siblings));
  const middle = Array.from({ length: end - start + 1 }, (_, i) => ({ index: start + i }));
  return [
    { index: 0 },
    start === 2 ? { index: 1 } : { gap: "start" },
    ...middle,
    end === last - 2 ? { index: last - 1 } : { gap: "end" },
    { index: last },
  ];
}

const linkBase = "inline-flex min-w-9 items-center justify-center rounded-md px-2.5 py-1.5 text-sm font-medium";
const linkIdle = `${linkBase} text-slate-700 ring-1 ring-inset ring-slate-300 bg-white hover:bg-slate-50`;
const linkCurrent = `${linkBase} bg-blue-700 text-white ring-1 ring-inset ring-blue-700`;
const linkDisabled = `${linkBase} cursor-not-allowed text-slate-500 ring-1 ring-inset ring-slate-200 bg-slate-50`;

export function Pagination({
  count,
  limit,
  offset,
  hrefFor,
  pageSizes = PAGE_SIZES,
  itemLabel = "items",
  label = "Pagination",
}: TPaginationProps) {
  const router = useRouter();
  const sizeId = useId();

  // The API serves offsets up to API_MAX_OFFSET: later rows exist (count says so) but cannot be paged to.
  const lastOffset = Math.min(Math.max(0, count - 1), API_MAX_OFFSET);
  const pageCount = Math.floor(lastOffset / limit) + 1;
  const current = Math.floor(offset / limit);
  // From past the end (a stale bookmark), Previous leads to the last page that has rows.
  const previousOffset = offset > 0 ? Math.max(0, Math.min(offset - limit, (pageCount - 1) * limit)) : null;
  const nextOffset = offset + limit < count && offset + limit <= API_MAX_OFFSET ? offset + limit : null;
  const truncated = count > API_MAX_OFFSET + limit;

  // A page size from a hand-written URL (say limit=5) stays selectable, so the select tells the truth.
  const sizes = [...new Set([...pageSizes, limit])].sort((a, b) => a - b);

  const first = Math.min(offset + 1, count);
  const last = Math.min(offset + limit, count);
  const number = new Intl.NumberFormat();

  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-x-6 gap-y-3 text-sm text-slate-700">
      <p aria-live="polite">
        {count === 0 ? (
          `No ${itemLabel}`
        ) : offset >= count ? (
          `This page is past the last of ${number.format(count)} ${itemLabel}`
        ) : (
          <>
            Showing <span className="font-semibold">{`${number.format(first)}–${number.format(last)}`}</span> of{" "}
            <span className="font-semibold">{number.format(count)}</span> {itemLabel}
          </>
        )}
      </p>

      {count > 0 ? (
        <nav aria-label={label}>
          <ul className="flex flex-wrap items-center gap-1">
            <li>
              <PageLink href={previousOffset === null ? null : hrefFor({ limit, offset: previousOffset })} rel="prev">
                Previous
              </PageLink>
            </li>
            {pageWindow(current, pageCount).map((item) =>
              "gap" in item ? (
                <li key={item.gap} aria-hidden="true" className="px-1 text-slate-500">
                  …
                </li>
              ) : (
                <li key={item.index}>
                  <Link
                    href={hrefFor({ limit, offset: item.index * limit })}
                    prefetch={false}
                    aria-label={`Page ${item.index + 1}`}
                    aria-current={item.index === current ? "page" : undefined}
                    className={item.index === current ? linkCurrent : linkIdle}
                  >
                    {item.index + 1}
                  </Link>
                </li>
              ),
            )}
            <li>
              <PageLink href={nextOffset === null ? null : hrefFor({ limit, offset: nextOffset })} rel="next">
                Next
              </PageLink>
            </li>
          </ul>
        </nav>
      ) : null}

      <div className="flex items-center gap-2">
        <label htmlFor={sizeId}>Rows per page</label>
        <select
          id={sizeId}
          value={limit}
          // Keeps the first row on screen in view: the page that holds it at the new size.
          onChange={(e) => {
            const size = Number(e.currentTarget.value);
            router.push(hrefFor({ limit: size, offset: Math.floor(offset / size) * size }), { scroll: false });
          }}
          className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
        >
          {sizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>

      {truncated ? (
        <p className="w-full text-xs text-slate-600">
          Only the first {number.format(API_MAX_OFFSET + limit)} can be paged through; narrow the filters to reach the rest.
        </p>
      ) : null}
    </div>
  );
}

/**
 * Previous / Next: a link, or at the ends a link without a target (`aria-disabled`), so it keeps its
 * place in the layout and is still announced, but cannot be followed or focused.
 */
function PageLink({ href, rel, children }: { href: string | null; rel: "prev" | "next"; children: string }) {
  if (href === null) {
    return (
      <a role="link" aria-disabled="true" className={linkDisabled}>
        {children}
      </a>
    );
  }
  return (
    <Link href={href} rel={rel} prefetch={false} className={linkIdle}>
      {children}
    </Link>
  );
}
