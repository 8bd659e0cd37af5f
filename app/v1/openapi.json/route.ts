import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { ENDPOINTS } from "@/lib/schemas/endpoints";

// Generating walks every schema; the document cannot change while the process runs.
let document: object | undefined;

/**
 * The API reference (public, no database). The document's paths already begin with `/v1`, so the
 * server is the bare origin this request reached (or `PUBLIC_URL`), not `<origin>/v1`.
 */
export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getOpenApiDocument, ({ origin }) => {
    document ??= buildOpenApiDocument();
    return json({ ...document, servers: [{ url: origin }] });
  }),
);
