/**
 * How big one contract may be. A contract is read whole (its page, its GET, every list that
 * summarises its parties), so an unbounded one makes every reader pay: these bound what a single
 * create can write. Generous for real agreements; docs/api.md "Creating a contract".
 */
export const CONTRACT_LIMITS = {
  /** Counterparties in one contract (the owner-side party comes on top). */
  counterparties: 50,
  /** Participants of one company party. */
  participantsPerParty: 50,
  /** Participants of all counterparties together. */
  participantsPerContract: 200,
  /** Entries of `data_fields` in one create (each names a template data field once). */
  dataFieldValues: 500,
} as const;

/** The longest description of a webhook subscription: the API's rule and the Webhooks page's box. */
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;

/** The longest search (`q`, after trimming) the contracts list takes: the API's rule and the list page's box. */
export const SEARCH_QUERY_MAX_LENGTH = 100;

/**
 * A contracts list with `q` holds the newest this many matches, and orders (or ranks), counts and
 * pages those; its `count_exact` says when more match. A word most contracts hold is then found in
 * the first rows an index gives, not ranked and counted in every contract (docs/performance.md
 * "Search"). A broad search's time is mostly finding these: 1,000 took 4–7 ms more than 500 at
 * 1,000,200 contracts (bench/results/search-window-2026-12-02.md).
 */
export const SEARCH_MATCH_LIMIT = 500;
