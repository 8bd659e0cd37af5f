import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { serializeDataField } from "@/lib/api/serializers";
import type { TDataField } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { getDataField } from "@/lib/services/data-fields/get-data-field";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getDataField, async ({ prisma, actor, params, origin }) => {
    const row = await getDataField({ db: prisma, actor, contractId: params.contract_id, dataFieldId: params.data_field_id });
    return json(serializeDataField(row, { origin }) satisfies TDataField);
  }),
);
