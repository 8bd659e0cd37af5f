import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { serializeDataField } from "@/lib/api/serializers";
import type { TDataField } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { getDataField } from "@/lib/services/data-fields/get-data-field";
import { updateDataField } from "@/lib/services/data-fields/update-data-field";

// `data_field_id` is an id or `c::{custom_id}` (lib/schemas/data-field.ts); both answer the same field.
export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getDataField, async ({ prisma, actor, params, origin }) => {
    const row = await getDataField({ db: prisma, actor, contractId: params.contract_id, dataField: params.data_field_id });
    return json(serializeDataField(row, { origin }) satisfies TDataField);
  }),
  /** docs/api.md "Data field values". */
  handle(ENDPOINTS.updateDataField, async ({ prisma, actor, params, body, origin, requestId }) => {
    const row = await updateDataField({
      db: prisma,
      actor,
      contractId: params.contract_id,
      dataField: params.data_field_id,
      value: body.value,
      requestId,
    });
    return json(serializeDataField(row, { origin }) satisfies TDataField);
  }),
);
