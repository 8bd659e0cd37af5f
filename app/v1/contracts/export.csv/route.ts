import { endpointRoute, handle } from "@/lib/api/endpoint";
import { contractsCsvStream } from "@/lib/api/contracts-csv";
import { ENDPOINTS } from "@/lib/schemas/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.exportContractsCsv, async ({ prisma, actor, query }) => {
    const day = new Date().toISOString().slice(0, 10);
    return new Response(await contractsCsvStream({ db: prisma, actor, query }), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="contracts-${day}.csv"`,
        // A download, never rendered in this origin; what the caller may see, so never stored by a cache.
        "Cache-Control": "private, no-store",
      },
    });
  }),
);
