import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { apiError } from "@/lib/api/errors";
import { databaseStatus, getPrisma } from "@/lib/db";
import { queryOne } from "@/lib/db/query";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TPing } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";

/**
 * Readiness: 200 once the database is migrated (and, on first start, seeded) and answers a query;
 * 503 before that and while it is away. Public, so load balancers can probe it without a token.
 */
export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.ping, async () => {
    if (databaseStatus() !== "ready") {
      getPrisma().catch(() => undefined); // start (or retry) opening it; don't wait
      throw apiError("database_unavailable", "The database is starting; try again shortly.", { headers: { "Retry-After": "1" } });
    }
    // Straight on the pool (one prepared statement), as the hot reads: the check is the round trip.
    await queryOne(await getPrisma(), Prisma.sql`SELECT 1`);
    return json({ status: "ok" } satisfies TPing);
  }),
);
