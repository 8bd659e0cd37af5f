"use client";

// A page of a /v1 list as the app shows every list: the table (skeleton while loading, the previous
// page dimmed while the next loads), the error state with Retry, and the pagination under it.

import type { UseQueryResult } from "@tanstack/react-query";
import Link from "next/link";
import { pageOf, type TPaginated } from "@/lib/client/v1";
import { DataTable, type TDataTableProps } from "./data-table";
import { Pagination, type TPageRef } from "./pagination";
import { EmptyState, ErrorState } from "./states";

export interface TPaginatedTableProps<T> extends Omit<TDataTableProps<T>, "rows" | "busy" | "skeletonRows"> {
  /**
   * The list's query. Give it `placeholderData: keepPreviousData`, so the rows of the page being
   * left stay (dimmed) until the next page arrives, instead of the table collapsing to a skeleton.
   */
  query: UseQueryResult<TPaginated<T>, Error>;
  /** The page size asked for (the number of skeleton rows before the first answer). */
  limit: number;
  hrefFor: (page: TPageRef) => string;
  /** Plural noun: "contracts". */
  itemLabel: string;
  /** Names the pagination landmark; must differ between lists on one page. */
  paginationLabel?: string;
}

export function PaginatedTable<T>({ query, limit, hrefFor, itemLabel, paginationLabel, empty, ...table }: TPaginatedTableProps<T>) {
  const { data } = query;
  if (query.isError && !data) {
    return (
      <ErrorState
        title={`Could not load the ${itemLabel}.`}
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  // Describe the rows on screen: with placeholder data they are the previous page's, not the URL's.
  const page = data ? pageOf(data) : null;
  const pastTheEnd = data !== undefined && data.data.length === 0 && data.count > 0;
  return (
    <div>
      <DataTable
        {...table}
        rows={data?.data}
        busy={query.isPlaceholderData}
        skeletonRows={Math.min(limit, 10)}
        empty={
          pastTheEnd ? (
            <EmptyState title="There are no rows on this page.">
              <Link href={hrefFor({ limit: page?.limit ?? limit, offset: 0 })} className="font-medium text-blue-700 underline hover:text-blue-900">
                Go to the first page
              </Link>
            </EmptyState>
          ) : (
            empty
          )
        }
      />
      {data && page ? (
        <Pagination count={data.count} limit={page.limit} offset={page.offset} hrefFor={hrefFor} itemLabel={itemLabel} label={paginationLabel} />
      ) : null}
    </div>
  );
}
