import { CONTRACT_STATES } from "@/lib/domain/enums";
import { defineUrlState, pageParams, param } from "@/lib/client/url-state";
import type { TContractListQuery, TContractSort } from "@/lib/schemas";
import { SEARCH_QUERY_MAX_LENGTH } from "@/lib/schemas/limits";

/** The columns `/v1/contracts` sorts by; each also descending with a leading `-`. */
export const CONTRACT_SORT_KEYS = ["id", "name", "created_time", "updated_time", "end_date", "notice_deadline"] as const;
export type TContractSortKey = (typeof CONTRACT_SORT_KEYS)[number];

// Written out rather than imported (see lib/client/v1.ts on bundle size); this alias stops compiling
// if the API's CONTRACT_SORTS and these keys ever disagree.
type TSame<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
type TAssert<T extends true> = T;
export type TContractSortsMatchApi = TAssert<TSame<TContractSort, TContractSortKey | `-${TContractSortKey}` | "relevance">>;

/** `lifecycle_state`'s values: the states, then the sub-states (lib/schemas/contract.ts CONTRACT_LIFECYCLE_FILTERS). */
export const CONTRACT_LIFECYCLE_FILTER_VALUES = ["awaiting", "active", "ended", "canceled", "terminated"] as const;
export type TContractLifecycleFilter = (typeof CONTRACT_LIFECYCLE_FILTER_VALUES)[number];
export type TContractLifecycleFiltersMatchApi = TAssert<TSame<NonNullable<TContractListQuery["lifecycle_state"]>, TContractLifecycleFilter>>;

const SORTS = CONTRACT_SORT_KEYS.flatMap((key) => [key, `-${key}` as const]);

/** The order the page shows: the URL's, `relevance` only with a search, else the best matches or the most recently updated first. */
export function contractsPageSort(state: { q?: string | undefined; sort?: TContractSort | undefined }): TContractSort {
  if (state.sort !== undefined && (state.sort !== "relevance" || state.q !== undefined)) return state.sort;
  return state.q !== undefined ? "relevance" : "-updated_time";
}

/**
 * The contracts table's URL: `/contracts?q=nda&workspace_id=2&state=signed&sort=-name&limit=50&offset=50`,
 * the same names and values as the `/v1/contracts` query it sends. Opens on the most recently
 * updated contracts, 25 a page.
 */
export const contractsUrlState = defineUrlState({
  q: param.optionalText(SEARCH_QUERY_MAX_LENGTH),
  workspace_id: param.optionalId(),
  state: param.oneOf(CONTRACT_STATES, undefined),
  // The dashboard's links (docs/web-app.md "Dashboard").
  updated_before: param.optionalTime(),
  expires_before: param.optionalTime(),
  state_updated_after: param.optionalTime(),
  delivery_failed: param.oneOf(["true"] as const, undefined),
  awaiting_me: param.oneOf(["true"] as const, undefined),
  // The lifecycle after signing (a state or a sub-state) and its dates.
  lifecycle_state: param.oneOf(CONTRACT_LIFECYCLE_FILTER_VALUES, undefined),
  ends_after: param.optionalDate(),
  ends_before: param.optionalDate(),
  notice_deadline_after: param.optionalDate(),
  notice_deadline_before: param.optionalDate(),
  renewed_after: param.optionalTime(),
  // Unset: the best matches first while searching (`relevance`), else the most recently updated (`contractsPageSort`).
  sort: param.oneOf([...SORTS, "relevance" as const], undefined),
  ...pageParams(25),
});
