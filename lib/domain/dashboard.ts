// The dashboard's questions (docs/web-app.md "Dashboard"), each a filter of the contracts list, so a
// number is exactly the length of the list it links to. Pure: the API counts them (lib/api/json/dashboard.ts).

const DAY = 86_400_000;

export const DASHBOARD_WINDOWS = { untouchedDraftDays: 14, expiringDays: 7, declinedDays: 30 } as const;

/** The failed deliveries the dashboard names one by one (the rest are behind its count's link). */
export const DASHBOARD_FAILURES_SHOWN = 20;

export const DASHBOARD_TILES = ["awaiting_me", "delivery_failed", "expiring", "declined", "untouched_drafts"] as const;
export type TDashboardTile = (typeof DASHBOARD_TILES)[number];

/** The contracts list's query of each tile at `now` (its filters as the list takes them in the URL). */
export function dashboardQueries(now: Date): Record<TDashboardTile, Record<string, string>> {
  const at = (offsetDays: number) => new Date(now.getTime() + offsetDays * DAY).toISOString();
  return {
    awaiting_me: { state: "pending", awaiting_me: "true" },
    delivery_failed: { state: "pending", delivery_failed: "true" },
    expiring: { state: "pending", expires_before: at(DASHBOARD_WINDOWS.expiringDays) },
    declined: { state: "declined", state_updated_after: at(-DASHBOARD_WINDOWS.declinedDays) },
    untouched_drafts: { state: "draft", updated_before: at(-DASHBOARD_WINDOWS.untouchedDraftDays) },
  };
}
