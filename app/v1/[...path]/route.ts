import { ApiError } from "@/lib/api/errors";
import { withApi } from "@/lib/api/endpoint";

// Any /v1 path no route file matches answers 404 in the API's error shape (not Next's HTML page),
// for every method, without touching the database or asking for credentials.
const noSuchRoute = withApi(
  ({ req, url }) => {
    throw new ApiError("route_not_found", `No endpoint ${req.method} ${url.pathname} exists.`);
  },
  { route: "/v1/{unknown}", auth: false, database: false },
);

export const GET = noSuchRoute;
export const HEAD = noSuchRoute;
export const POST = noSuchRoute;
export const PUT = noSuchRoute;
export const PATCH = noSuchRoute;
export const DELETE = noSuchRoute;
export const OPTIONS = noSuchRoute;
