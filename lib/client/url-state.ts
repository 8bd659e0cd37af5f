// A list's state (page, page size, sort, filters) lives in the URL's search params, so a view can be
// bookmarked or shared, and the back button steps through earlier views. The params are named as
// the /v1 API names them, so a page's URL maps one to one onto the query it sends.
//
// A param that is missing or not valid falls back to its default (a hand-edited or outdated link
// still opens a sensible view); defaults are left out of the URLs this writes, so they stay short.

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { API_MAX_LIMIT, API_MAX_OFFSET } from "./v1";

/** How one search param is read: `read` answers undefined for a value it does not accept. */
export interface TParamSpec<T> {
  read: (raw: string) => T | undefined;
  fallback: T;
}

/** Ids are Postgres integers; typed as the schema's constant so the two agree (see lib/client/v1.ts). */
const MAX_ID: typeof import("@/lib/schemas/common").MAX_ID = 2_147_483_647;

export const param = {
  /** A whole number written in plain digits (no sign, decimals or exponent), within [min, max]. */
  integer<F extends number | undefined>(min: number, max: number, fallback: F): TParamSpec<number | F> {
    return {
      read: (raw) => (/^\d{1,10}$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : undefined),
      fallback,
    };
  },
  /** One of a closed set of strings. */
  oneOf<const V extends string, F extends V | undefined>(values: readonly V[], fallback: F): TParamSpec<V | F> {
    return { read: (raw) => values.find((value) => value === raw), fallback };
  },
  /**
   * Optional free text (a search), trimmed; missing, blank or longer than `maxLength` after
   * trimming reads as not set.
   */
  optionalText(maxLength: number): TParamSpec<string | undefined> {
    return {
      read: (raw) => {
        const text = raw.trim();
        return text.length >= 1 && text.length <= maxLength ? text : undefined;
      },
      fallback: undefined,
    };
  },
  /** An optional point in time, as the API takes it (ISO 8601 with an offset, e.g. `2026-11-26T09:00:00.000Z`). */
  optionalTime(): TParamSpec<string | undefined> {
    return { read: (raw) => (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(raw) && !Number.isNaN(Date.parse(raw)) ? raw : undefined), fallback: undefined };
  },
  /** An optional calendar date, as the API takes it (`YYYY-MM-DD`, a real day). */
  optionalDate(): TParamSpec<string | undefined> {
    return {
      read: (raw) => {
        const time = /^\d{4}-\d\d-\d\d$/.test(raw) ? Date.parse(`${raw}T00:00:00Z`) : NaN;
        // 2027-02-30 parses as 2 March: only a day that writes back the same is one.
        return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === raw ? raw : undefined;
      },
      fallback: undefined,
    };
  },
  /** An optional id filter (a workspace, say). */
  optionalId(): TParamSpec<number | undefined> {
    return param.integer(1, MAX_ID, undefined);
  },
};

/** `limit` and `offset` with the API's bounds; `defaultLimit` is the page size a list opens with. */
export function pageParams(defaultLimit = 25) {
  return {
    limit: param.integer(1, API_MAX_LIMIT, defaultLimit),
    offset: param.integer(0, API_MAX_OFFSET, 0),
  };
}

type TStateOf<S> = { [K in keyof S]: S[K] extends TParamSpec<infer T> ? T : never };

export interface TUrlStateDefinition<S extends Record<string, TParamSpec<unknown>>> {
  /** The state a URL's search params describe; never throws. */
  parse: (search: URLSearchParams) => TStateOf<S>;
  /** `?…` for a state, without the params at their defaults; `""` for the default view. */
  format: (state: TStateOf<S>) => string;
}

/** Declares a list's URL state once, at module level, from one spec per param. */
export function defineUrlState<S extends Record<string, TParamSpec<unknown>>>(spec: S): TUrlStateDefinition<S> {
  const keys = Object.keys(spec) as (keyof S & string)[];
  return {
    parse(search) {
      const state = {} as TStateOf<S>;
      for (const key of keys) {
        const raw = search.get(key);
        const value = raw === null ? undefined : spec[key]!.read(raw);
        state[key] = (value === undefined ? spec[key]!.fallback : value) as TStateOf<S>[typeof key];
      }
      return state;
    },
    format(state) {
      const search = new URLSearchParams();
      for (const key of keys) {
        const value = state[key];
        if (value !== undefined && value !== null && value !== spec[key]!.fallback) search.set(key, String(value));
      }
      const text = search.toString();
      return text ? `?${text}` : "";
    },
  };
}

/**
 * The current list state, and how to get to another: `hrefWith` for links (pagination), `push` for
 * controls (selects, sort buttons). Each change is a history entry, so Back returns to the last view.
 * Changing what is selected or its order does not move to the first page by itself: callers say
 * `offset: 0` where they mean it (filters, sort), and keep the position where that is kinder (page size).
 */
export function useUrlState<S extends Record<string, TParamSpec<unknown>>>(definition: TUrlStateDefinition<S>) {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const state = useMemo(() => definition.parse(new URLSearchParams(searchParams.toString())), [definition, searchParams]);
  const hrefWith = useCallback(
    (patch: Partial<TStateOf<S>>) => `${pathname}${definition.format({ ...state, ...patch })}`,
    [definition, pathname, state],
  );
  const push = useCallback(
    // scroll: false keeps the reader's place (and focus) when a filter or the sort changes.
    (patch: Partial<TStateOf<S>>) => router.push(hrefWith(patch), { scroll: false }),
    [hrefWith, router],
  );
  /** As `push`, without a history entry: for text typed into a search box, one entry per search. */
  const replace = useCallback(
    (patch: Partial<TStateOf<S>>) => router.replace(hrefWith(patch), { scroll: false }),
    [hrefWith, router],
  );
  return { state, hrefWith, push, replace };
}

// --- Sort -----------------------------------------------------------------------------------------

export type TSortDirection = "ascending" | "descending";
/** A sort as tables show it (`aria-sort` words); the URL and the API write it `name` / `-name`. */
export type TSort<K extends string = string> = { key: K; direction: TSortDirection };

export function sortFromParam<K extends string>(value: K | `-${K}`): TSort<K> {
  return value.startsWith("-")
    ? { key: value.slice(1) as K, direction: "descending" }
    : { key: value as K, direction: "ascending" };
}

export function sortToParam<K extends string>(sort: TSort<K>): K | `-${K}` {
  return sort.direction === "descending" ? `-${sort.key}` : sort.key;
}

/**
 * The sort after a click on `key`'s header: the other direction when it is already sorted by `key`,
 * else `firstDirection` (ascending for names; dates read best newest first).
 */
export function toggleSort<K extends string>(current: TSort<K> | null, key: K, firstDirection: TSortDirection = "ascending"): TSort<K> {
  if (current?.key === key) return { key, direction: current.direction === "ascending" ? "descending" : "ascending" };
  return { key, direction: firstDirection };
}

/** The URL state of a list that only pages (`?limit=…&offset=…`): the lookup tables. */
export const pagedListUrlState = defineUrlState(pageParams(25));
