import { absoluteUrl } from "@/lib/http/origin";
import type { ContractDataField } from "@/lib/generated/prisma/client";
import type { TDataField } from "@/lib/schemas";

import { isoTime } from "./time";

/** docs/api.md "Resources". */
export function serializeDataField(row: ContractDataField, { origin }: { origin: string }): TDataField {
  const contract = `/v1/contracts/${row.contractId}`;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    placeholder: row.placeholder,
    value: row.value,
    _private_ownerside: { created_time: isoTime(row.createdAt), custom_id: row.customId, updated_time: isoTime(row.updatedAt) },
    _links: {
      contract: { href: absoluteUrl(origin, contract) },
      self: { href: absoluteUrl(origin, `${contract}/data_fields/${row.id}`) },
    },
  } satisfies TDataField;
}
