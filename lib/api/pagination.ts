import { jsonText } from "@/lib/api/response";
import { bytesFromEscaped, listCountOfEscaped } from "@/lib/db/sql";
import { absoluteUrl, type TQueryValues } from "@/lib/http/links";
import { MAX_OFFSET, type TPaginated, type TPagination } from "@/lib/schemas/pagination";

export interface TPaginatedInput<T> extends TPagination {
  origin: string;
  /** The collection's path, e.g. `/v1/contracts`. */
  path: string;
  /** The filters and sort the answer was computed with; carried into every link. */
  query?: TQueryValues;
  /** Total after permissions and filters, regardless of limit and offset. */
  count: number;
  data: T[];
}

/**
 * The list envelope of docs/api.md "Pagination". Links are absolute, always show the effective `limit` and `offset`
 * (so the defaults are visible) and keep every filter; `next`/`previous` are null where no such page
 * exists, which is always the case with `limit=all`, and `next` never points past the maximum offset.
 */
export function paginated<T>(input: TPaginatedInput<T>): TPaginated<T> {
  const { self, next, previous } = pageLinks(input, input.count);
  return { count: input.count, data: input.data, _links: { self: { href: self }, next: { href: next }, previous: { href: previous } } };
}

/** The three links of a page (`paginated`'s rules). */
function pageLinks({ origin, path, query = {}, limit, offset }: Omit<TPaginatedInput<never>, "count" | "data">, count: number) {
  const href = (pageOffset: number) => absoluteUrl(origin, path, { ...query, limit, offset: pageOffset });
  let next: string | null = null;
  let previous: string | null = null;
  if (limit !== "all") {
    const nextOffset = offset + limit;
    if (nextOffset < count && nextOffset <= MAX_OFFSET) next = href(nextOffset);
    if (offset > 0) previous = href(Math.max(0, offset - limit));
  }
  return { self: href(offset), next, previous };
}

/**
 * The same envelope, answered, when PostgreSQL wrote its start `{"count":…,"data":[…]` as UTF-8
 * bytes (lib/db/sql.ts `listHeadSql`, read as a route's preload in pieces: `listPreload`): the
 * links are appended to those bytes, their JSON written here as `paginated` would give it (without
 * building its objects: this runs on every list request).
 */
export function paginatedPreloaded(preloaded: unknown, input: Omit<TPaginatedInput<never>, "count" | "data">): Response {
  const { self, next, previous } = pageLinks(input, listCountOfEscaped(preloaded));
  const links = `,"_links":{"self":{"href":${JSON.stringify(self)}},"next":{"href":${JSON.stringify(next)}},"previous":{"href":${JSON.stringify(previous)}}}}`;
  // The head as bytes with the links after it, in one buffer.
  return jsonText(bytesFromEscaped(preloaded as readonly string[], Buffer.from(links, "utf8")));
}
