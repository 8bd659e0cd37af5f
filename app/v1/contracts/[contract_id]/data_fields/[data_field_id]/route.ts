import { json, otherMethods, withApi } from "@/lib/api/handler";
import { parseIdParam } from "@/lib/api/request";
import { serializeDataField } from "@/lib/api/serializers";
import type { TDataField } from "@/lib/schemas";
import { getDataField } from "@/lib/services/data-fields/get-data-field";

const route = "/v1/contracts/{contract_id}/data_fields/{data_field_id}";

export const GET = withApi(
  async ({ prisma, actor, params, origin }) => {
    const contractId = parseIdParam(params.contract_id, "contract_id");
    const dataFieldId = parseIdParam(params.data_field_id, "data_field_id");
    const row = await getDataField({ db: prisma, actor, contractId, dataFieldId });
    return json(serializeDataField(row, { origin }) satisfies TDataField);
  },
  { route },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
