// Boxes on the pages of a contract's uploaded PDF (docs/documents.md "Uploaded PDF"), in the
// spirit of Documenso's fields: a page, and a position and size as shares of the page.
import { z } from "zod";

import { MIN_BOX_SHARE, PLACEMENT_KINDS } from "@/lib/domain/placement";

import { ZIdParamSchema, ZIdSchema, ZTimestampSchema, oneOf, requestObject, typeError } from "./common";
import { answerShapeOf, fieldTable, readOnlyAnswerNamesOf } from "./field-table";

export const ZPlacementKindSchema = oneOf(PLACEMENT_KINDS).meta({
  id: "PlacementKind",
  description:
    "`signature`: the signatory's signature mark (their typed name, a line, when they signed). `name`: their name. " +
    "`date_signed`: the day they signed (UTC). `data_field`: the data field's value.",
});

/** A share of the page's width or height, measured from its top left corner. */
const share = (what: string) =>
  z
    .number({ error: typeError("a number from 0 to 1") })
    .min(0, "must be 0 or more (a share of the page)")
    .max(1, "must be at most 1 (a share of the page)")
    .meta({ description: what });

const size = (what: string) =>
  z
    .number({ error: typeError("a number from 0 to 1") })
    .min(MIN_BOX_SHARE, `must be at least ${MIN_BOX_SHARE} (a share of the page)`)
    .max(1, "must be at most 1 (a share of the page)")
    .meta({ description: what });

const WRITE = "while the contract is a draft with an uploaded PDF; the box stays on its page";

/** A placement's fields (lib/schemas/field-table.ts): one row per column of `placements`. */
export const PLACEMENT_FIELDS = fieldTable({
  id: { sql: "int", answer: { name: "id", type: ZIdSchema } },
  /** The contract it belongs to: the answer's path. */
  contractId: { sql: "int" },
  kind: { sql: "placement_kind", answer: { name: "kind", type: ZPlacementKindSchema }, write: WRITE, audit: true },
  participantId: {
    sql: "int",
    nullable: true,
    answer: { name: "participant_id", type: ZIdSchema.meta({ description: "The signatory a signature, name or date box belongs to; null for a data field's." }) },
    write: "a signatory of the contract, for signature, name and date_signed boxes",
    audit: true,
  },
  dataFieldId: {
    sql: "int",
    nullable: true,
    answer: { name: "data_field_id", type: ZIdSchema.meta({ description: "The data field a data_field box shows; null for the others." }) },
    write: "a data field of the contract, for data_field boxes",
    audit: true,
  },
  page: { sql: "int", answer: { name: "page", type: z.number().int().meta({ description: "The page, from 1." }) }, write: WRITE, audit: true },
  x: { sql: "float8", answer: { name: "x", type: z.number().meta({ description: "The box's left edge, as a share of the page's width from its left." }) }, write: WRITE, audit: true },
  y: { sql: "float8", answer: { name: "y", type: z.number().meta({ description: "The box's top edge, as a share of the page's height from its top." }) }, write: WRITE, audit: true },
  width: { sql: "float8", answer: { name: "width", type: z.number().meta({ description: "As a share of the page's width." }) }, write: WRITE, audit: true },
  height: { sql: "float8", answer: { name: "height", type: z.number().meta({ description: "As a share of the page's height." }) }, write: WRITE, audit: true },
  createdAt: { sql: "timestamptz", answer: { name: "created_time", type: ZTimestampSchema } },
  updatedAt: { sql: "timestamptz", answer: { name: "updated_time", type: ZTimestampSchema } },
});

export const ZPlacementSchema = z.object(answerShapeOf(PLACEMENT_FIELDS, {})).meta({ id: "Placement" });

export const ZPlacementListSchema = z.object({ count: z.number().int(), data: z.array(ZPlacementSchema) }).meta({ id: "PlacementList" });

// --- Requests ---

const PLACEMENT_REQUEST_SHAPE = {
  kind: ZPlacementKindSchema,
  participant_id: ZIdSchema.nullable().optional().meta({ description: "For signature, name and date_signed boxes: a signatory of the contract." }),
  data_field_id: ZIdSchema.nullable().optional().meta({ description: "For data_field boxes: a data field of the contract." }),
  page: z
    .number({ error: typeError("a page number") })
    .int("must be a whole page number")
    .min(1, "must be 1 or more")
    .max(100_000, "must be a page of the PDF")
    .meta({ description: "The page, from 1; at most the PDF's page count." }),
  x: share("The left edge, as a share of the page's width (0 = left edge)."),
  y: share("The top edge, as a share of the page's height (0 = top edge)."),
  width: size("The width, as a share of the page's width; x + width at most 1."),
  height: size("The height, as a share of the page's height; y + height at most 1."),
};

const READ_ONLY = Object.fromEntries(readOnlyAnswerNamesOf(PLACEMENT_FIELDS).map((key) => [key, "is read-only"]));

export const ZCreatePlacementRequestSchema = requestObject(PLACEMENT_REQUEST_SHAPE, READ_ONLY).meta({ id: "CreatePlacementRequest" });

export const ZUpdatePlacementRequestSchema = requestObject(
  Object.fromEntries(Object.entries(PLACEMENT_REQUEST_SHAPE).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof typeof PLACEMENT_REQUEST_SHAPE]: z.ZodOptional<(typeof PLACEMENT_REQUEST_SHAPE)[K]>;
  },
  READ_ONLY,
).meta({ id: "UpdatePlacementRequest" });

export const ZPlacementPathParamsSchema = z.object({
  contract_id: ZIdParamSchema.meta({ description: "The contract." }),
  placement_id: ZIdParamSchema.meta({ description: "The box." }),
});

export type TPlacement = z.infer<typeof ZPlacementSchema>;
export type TPlacementList = z.infer<typeof ZPlacementListSchema>;
export type TCreatePlacementRequest = z.infer<typeof ZCreatePlacementRequestSchema>;
export type TUpdatePlacementRequest = z.infer<typeof ZUpdatePlacementRequestSchema>;
