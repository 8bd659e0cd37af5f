import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { dataFieldAnswer, dataFieldPreload, preloadedDataField } from "@/lib/api/json/data-field";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { updateDataField } from "@/lib/services/data-fields/update-data-field";

// `data_field_id` is an id or `c::{custom_id}` (lib/schemas/data-field.ts); both answer the same field.
export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.getDataField,
    ({ params, preloaded }) => jsonText(preloadedDataField(preloaded, params.contract_id, params.data_field_id)),
    // Read with the credentials, in one statement.
    { preload: ({ params }, { origin }) => dataFieldPreload(params.contract_id, params.data_field_id, origin) },
  ),
  /** docs/api.md "Data field values". */
  handle(ENDPOINTS.updateDataField, async ({ prisma, actor, params, body, origin, requestId }) => {
    const row = await updateDataField({ db: prisma, actor, contractId: params.contract_id, dataField: params.data_field_id, value: body.value, requestId });
    return jsonText(await dataFieldAnswer(prisma, origin, row.id));
  }),
);
