// The dashboard's questions (docs/web-app.md "Dashboard"), each a filter of the contracts list, so a
// number is exactly the length of the list it links to. Pure: the API counts them (lib/api/json/dashboard.ts).

const DAY = 86_400_000;

export const DASHBOARD_WINDOWS = { untouchedDraftDays: 14, expiringDays: 7, declinedDays: 30, noticeDeadlineDays: 30, endingDays: 90 } as const;

/** How many of a lifecycle tile's contracts the dashboard names (the first of its list, in the list's order). */
export const DASHBOARD_ITEMS_SHOWN = 5;

/** The failed deliveries the dashboard names one by one (the rest are behind its count's link). */
export const DASHBOARD_FAILURES_SHOWN = 20;

export const DASHBOARD_TILES = ["awaiting_me", "delivery_failed", "expiring", "declined", "untouched_drafts", "notice_deadlines", "ending", "renewed"] as const;
export type TDashboardTile = (typeof DASHBOARD_TILES)[number];
/** The tiles of signed contracts' lifecycle, which name their first contracts too. */
export const DASHBOARD_LIFECYCLE_TILES = ["notice_deadlines", "ending", "renewed"] as const satisfies readonly TDashboardTile[];

/** `YYYY-MM-DD` of an instant's day in UTC, `days` later. */
const utcDay = (now: Date, days = 0) => new Date(now.getTime() + days * DAY).toISOString().slice(0, 10);

/**
 * The earliest day it is anywhere at `now` (UTC−12): a contract's dates are its workspace's calendar
 * days, so a deadline that is still today in Los Angeles at 20:00 (04:00 the next day in UTC) is
 * listed. No passed one is: the lifecycle job moves a notice deadline on at the workspace's midnight,
 * and the ending tile holds contracts in force only.
 */
const earliestToday = (now: Date) => utcDay(now, -0.5);

/** The contracts list's query of each tile at `now` (its filters as the list takes them in the URL). */
export function dashboardQueries(now: Date): Record<TDashboardTile, Record<string, string>> {
  const at = (offsetDays: number) => new Date(now.getTime() + offsetDays * DAY).toISOString();
  return {
    awaiting_me: { state: "pending", awaiting_me: "true" },
    delivery_failed: { state: "pending", delivery_failed: "true" },
    expiring: { state: "pending", expires_before: at(DASHBOARD_WINDOWS.expiringDays) },
    declined: { state: "declined", state_updated_after: at(-DASHBOARD_WINDOWS.declinedDays) },
    untouched_drafts: { state: "draft", updated_before: at(-DASHBOARD_WINDOWS.untouchedDraftDays) },
    // From the earliest today anywhere to the UTC day 30 (90) days on.
    notice_deadlines: { notice_deadline_after: earliestToday(now), notice_deadline_before: utcDay(now, DASHBOARD_WINDOWS.noticeDeadlineDays), sort: "notice_deadline" },
    ending: { lifecycle_state: "active", ends_after: earliestToday(now), ends_before: utcDay(now, DASHBOARD_WINDOWS.endingDays), sort: "end_date" },
    // Since the first instant of this month (UTC), soonest next notice deadline first.
    renewed: { renewed_after: `${utcDay(now).slice(0, 7)}-01T00:00:00.000Z`, sort: "notice_deadline" },
  };
}
