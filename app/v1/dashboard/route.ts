import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { dashboardPreload } from "@/lib/api/json/dashboard";
import { DASHBOARD_TILES, dashboardQueries, type TDashboardTile } from "@/lib/domain/dashboard";
import type { TDashboard } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.getDashboard,
    ({ preloaded }) => {
      const { as_of, counts, items, delivery_failures } = preloaded as {
        as_of: string;
        counts: Record<TDashboardTile, number | string>;
        items: Partial<Record<TDashboardTile, NonNullable<TDashboard["tiles"][number]["items"]>>>;
        delivery_failures: TDashboard["delivery_failures"];
      };
      const queries = dashboardQueries(new Date(as_of));
      const tiles = DASHBOARD_TILES.map((key) => ({ key, count: Number(counts[key]), query: queries[key], ...(items[key] ? { items: items[key] } : {}) }));
      return json({ as_of, tiles, delivery_failures } satisfies TDashboard);
    },
    // Counted in the authentication's statement, every window measured from the same moment.
    { preload: () => dashboardPreload(new Date()) },
  ),
);
