import { z } from "zod";

import { MAX_ID, ZIdParamSchema, ZIdSchema, ZLinkSchema, ZTimestampSchema, requestObject, selfParsedPathParam, typeError } from "./common";
import { answerShapeOf, fieldTable, readOnlyAnswerNamesOf } from "./field-table";
import { ZPaginatedSchema } from "./pagination";

/** The longest value a data field takes (docs/api.md "Data field values"). */
export const DATA_FIELD_VALUE_MAX_LENGTH = 10_000;
/** How a data field is named by its custom id in a path: `c::{custom_id}`. */
export const DATA_FIELD_CUSTOM_ID_PREFIX = "c::";

const AS_PRIVATE = "_private_ownerside";

/**
 * A data field's fields (lib/schemas/field-table.ts): one row per column of `contract_data_fields`.
 * A contract copies its template's data fields when it is created; a request writes only the value,
 * and only while the contract is a draft (docs/api.md "Data field values").
 */
export const DATA_FIELD_FIELDS = fieldTable({
  id: { sql: "int", answer: { name: "id", type: ZIdSchema } },
  /** The contract it belongs to: the answer's `_links`. */
  contractId: { sql: "int" },
  name: { sql: "text", answer: { name: "name", type: z.string() } },
  description: { sql: "text", answer: { name: "description", type: z.string().meta({ description: "May be empty." }) } },
  placeholder: { sql: "text", answer: { name: "placeholder", type: z.string().meta({ description: "May be empty." }) } },
  value: {
    sql: "text",
    answer: { name: "value", type: z.string().meta({ description: "May be empty." }) },
    write: `any text, at most ${DATA_FIELD_VALUE_MAX_LENGTH} characters, while the contract is a draft`,
    audit: true,
    frozen: "published",
  },
  createdAt: { sql: "timestamptz", answer: { name: "created_time", in: AS_PRIVATE, type: ZTimestampSchema } },
  customId: { sql: "text", answer: { name: "custom_id", in: AS_PRIVATE, type: z.string() } },
  updatedAt: { sql: "timestamptz", answer: { name: "updated_time", in: AS_PRIVATE, type: ZTimestampSchema } },
});

/** docs/api.md "Resources": a contract's copy of one of its template's data fields. */
export const ZDataFieldSchema = z
  .object(answerShapeOf(DATA_FIELD_FIELDS, { _links: z.object({ contract: ZLinkSchema, self: ZLinkSchema }) }))
  .meta({ id: "DataField" });

export const ZDataFieldListSchema = ZPaginatedSchema(ZDataFieldSchema).meta({ id: "DataFieldList" });

// --- Requests ---

/** A data field's value: any text (kept as sent, not trimmed), at most 10,000 characters. */
export const ZDataFieldValueSchema = z
  .string({ error: typeError("a string", { clearWith: '""' }) })
  .max(DATA_FIELD_VALUE_MAX_LENGTH, `must be at most ${DATA_FIELD_VALUE_MAX_LENGTH} characters`)
  .meta({ description: `The value, at most ${DATA_FIELD_VALUE_MAX_LENGTH} characters; "" clears it.` });

export const ZUpdateDataFieldRequestSchema = requestObject(
  { value: ZDataFieldValueSchema },
  Object.fromEntries([...readOnlyAnswerNamesOf(DATA_FIELD_FIELDS), "_links"].map((key) => [key, "is read-only"])),
).meta({ id: "UpdateDataFieldRequest" });

/** One entry of `data_fields` on contract creation: a template data field's custom id and its value. */
export const ZDataFieldValueRequestSchema = requestObject({
  custom_id: z
    .string({ error: typeError("a string") })
    .min(1, "must not be empty")
    .meta({ description: "The custom id of one of the template's data fields." }),
  value: ZDataFieldValueSchema,
}).meta({ id: "DataFieldValueRequest" });

// --- Path ---

const refMessage = `must be a positive integer no greater than ${MAX_ID}, or ${DATA_FIELD_CUSTOM_ID_PREFIX}{custom_id}`;

/**
 * A data field in a path: its id, or `c::{custom_id}` (percent-encoded `c%3A%3A…` too: the path is
 * decoded before it gets here). A custom id several fields share names the first (lowest id).
 */
export const ZDataFieldRefParamSchema = selfParsedPathParam(
  z
    .string({ error: typeError("a string") })
    .regex(/^(?:[1-9][0-9]{0,9}|c::[\s\S]+)$/, { error: refMessage, abort: true })
    .refine((raw) => raw.startsWith(DATA_FIELD_CUSTOM_ID_PREFIX) || Number(raw) <= MAX_ID, { error: refMessage, abort: true })
    .transform((raw): TDataFieldRef =>
      raw.startsWith(DATA_FIELD_CUSTOM_ID_PREFIX) ? { customId: raw.slice(DATA_FIELD_CUSTOM_ID_PREFIX.length) } : { id: Number(raw) },
    )
    .meta({
      description: `The data field: its id, or \`${DATA_FIELD_CUSTOM_ID_PREFIX}\` followed by its custom id (URL-encoded as needed).`,
      example: "42",
    }),
);

/** A data field named by id or by custom id. */
export type TDataFieldRef = { id: number } | { customId: string };

export const ZDataFieldPathParamsSchema = z.object({
  contract_id: ZIdParamSchema.meta({ description: "The contract that holds the data field." }),
  data_field_id: ZDataFieldRefParamSchema,
});

export type TDataField = z.infer<typeof ZDataFieldSchema>;
export type TDataFieldList = z.infer<typeof ZDataFieldListSchema>;
export type TDataFieldPathParams = z.infer<typeof ZDataFieldPathParamsSchema>;
export type TUpdateDataFieldRequest = z.infer<typeof ZUpdateDataFieldRequestSchema>;
export type TDataFieldValueRequest = z.infer<typeof ZDataFieldValueRequestSchema>;
