import { json, otherMethods, withApi } from "@/lib/api/handler";
import { buildOpenApiDocument } from "@/lib/openapi/document";

const route = "/v1/openapi.json";

// Generating walks every schema; the document cannot change while the process runs.
let document: object | undefined;

/**
 * The API reference (public, no database). The document's paths already begin with `/v1`, so the
 * server is the bare origin this request reached (or `PUBLIC_URL`), not `<origin>/v1`.
 */
export const GET = withApi(
  ({ origin }) => {
    document ??= buildOpenApiDocument();
    return json({ ...document, servers: [{ url: origin }] });
  },
  { route, auth: false, database: false },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
