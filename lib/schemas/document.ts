// The contract as a document: a template's or contract's `body`, the rendered document, and the
// files of a contract (docs/documents.md).
import { z } from "zod";

import { CONTRACT_FILE_TYPES, MAX_BODY_SECTIONS, MAX_HEADING_LENGTH } from "@/lib/domain/contract-document";

import { ZIdParamSchema, ZIdSchema, ZLinkSchema, ZTimestampSchema, requestObject, typeError } from "./common";
import { ZPaginatedSchema } from "./pagination";

const PLACEHOLDERS = "Placeholders: `{{field.<custom_id>}}` a data field's value, `{{parties}}` the parties, `{{signatories}}` the signatories.";

// Closed objects (requestObject): a PUT names every attribute it sends, and an unknown one is a 400, never dropped.
export const ZBodySchema = requestObject({
  sections: z
    .array(
      requestObject({
        heading: z
          .string({ error: typeError("a string") })
          .max(MAX_HEADING_LENGTH, `must be at most ${MAX_HEADING_LENGTH} characters`)
          .meta({ description: "Plain text; may be empty." }),
        text: z.string({ error: typeError("a string") }).meta({ description: `Plain text; a blank line starts a new paragraph. ${PLACEHOLDERS}` }),
      }),
      { error: typeError("a list") },
    )
    .max(MAX_BODY_SECTIONS, `at most ${MAX_BODY_SECTIONS} sections are accepted`),
}).meta({
    id: "Body",
    description: `The text of a template or contract: sections, each a heading and text. At most 200 KB (UTF-8 bytes of its JSON). ${PLACEHOLDERS}`,
  });

export const ZUpdateTemplateRequestSchema = requestObject({ body: ZBodySchema }).meta({ id: "UpdateTemplateRequest" });
export const ZUpdateContractBodyRequestSchema = requestObject({ body: ZBodySchema }).meta({ id: "UpdateContractBodyRequest" });

export const ZTemplateDataFieldSchema = z
  .object({ name: z.string(), custom_id: z.string(), default_value: z.string() })
  .meta({ id: "TemplateDataField", description: "A data field every contract created from the template receives." });

const ZSegmentSchema = z.object({
  text: z.string().meta({ description: "What is shown: the literal text, a data field's value, or `[Field name]` for an empty data field." }),
  field: z.string().optional().meta({ description: "The data field's custom_id, when the text is one." }),
  missing: z.boolean().optional().meta({ description: "The data field has no value yet." }),
});

const ZBlockSchema = z.union([
  z.object({ kind: z.literal("paragraph"), segments: z.array(ZSegmentSchema) }),
  z.object({ kind: z.literal("list"), items: z.array(z.array(ZSegmentSchema)) }),
]);

export const ZContractDocumentSchema = z
  .object({
    title: z.string(),
    sections: z.array(z.object({ heading: z.string(), blocks: z.array(ZBlockSchema) })),
    parties: z.array(z.object({ name: z.string(), details: z.string() })),
    signatories: z.array(
      z.object({ name: z.string(), title: z.string(), party: z.string(), sign_state: z.string(), signed_time: ZTimestampSchema.nullable() }),
    ),
    missing_data_fields: z
      .array(z.object({ custom_id: z.string(), name: z.string() }))
      .meta({ description: "Data fields the text needs that have no value; publishing refuses while any is listed." }),
    body: ZBodySchema,
    frozen: z.boolean().meta({ description: "The text can no longer change (the contract is published)." }),
    uploaded_pdf: z
      .object({ file_id: ZIdSchema, name: z.string(), size: z.number().int(), sha256: z.string(), pages: z.number().int(), href: z.string() })
      .nullable()
      .meta({ description: "The PDF staff uploaded as the document (`upload_as=expanded_pdf`): then it, not the text, is what is signed; `href` downloads it. Null for a text contract." }),
    _links: z.object({ self: ZLinkSchema, pdf: z.object({ href: z.string().nullable() }).meta({ description: "The contract file, downloaded as PDF." }) }),
  })
  .meta({ id: "ContractDocument", description: "The contract laid out as it is signed: the text with its data fields filled in." });

export const ZContractFileSchema = z
  .object({
    id: ZIdSchema,
    name: z.string(),
    type: z.enum(CONTRACT_FILE_TYPES).meta({
      description:
        "`contract`: the contract as a PDF (its text rendered, marked “Draft — not final” until signed; or the PDF staff uploaded as its document, as it is kept); " +
        "`verification`: the sealed signed copy; `attachment`: a file staff attached.",
    }),
    extension: z.string(),
    content_type: z.string(),
    size: z.number().int().nullable().meta({ description: "Bytes; null for a `contract` rendered from its text when downloaded." }),
    sha256: z.string().nullable().meta({ description: "Hex SHA-256 of the bytes; null for a `contract` rendered from its text." }),
    pages: z.number().int().nullable().meta({ description: "The page count of an uploaded PDF (`contract` of a contract whose document is one); null otherwise." }),
    created_time: ZTimestampSchema,
    _links: z.object({ self: ZLinkSchema, download: ZLinkSchema }),
  })
  .meta({ id: "ContractFile" });

export const ZContractFileListSchema = ZPaginatedSchema(ZContractFileSchema).meta({ id: "ContractFileList" });

export const ZContractFilePathParamsSchema = z.object({
  contract_id: ZIdParamSchema.meta({ description: "The contract." }),
  file_id: ZIdParamSchema.meta({ description: "The file." }),
});

export const ZContractFileQuerySchema = z.object({
  download: z
    .enum(["true", "false"], { error: "download must be true or false" })
    .optional()
    .meta({ description: "`true`: the file's bytes, with its Content-Type and Content-Disposition; otherwise its JSON description." }),
});

export const ZUploadContractFileRequestSchema = z
  .object({
    upload_as: z.enum(["attachment", "expanded_pdf"]).meta({
      description: "`attachment`: a file attached to the contract. `expanded_pdf`: a PDF that becomes the contract's document in place of its text (docs/documents.md \"Uploaded PDF\").",
    }),
    file: z.string().meta({ format: "binary", description: "An attachment: PDF, PNG or JPEG (checked by content), at most 10 MB. `expanded_pdf`: a PDF of at most 25 MB and 300 pages." }),
  })
  .meta({ id: "UploadContractFileRequest", description: "multipart/form-data with the fields `upload_as` and `file`." });

export type TBodyJson = z.infer<typeof ZBodySchema>;
export type TContractDocument = z.infer<typeof ZContractDocumentSchema>;
export type TContractFile = z.infer<typeof ZContractFileSchema>;
export type TContractFileList = z.infer<typeof ZContractFileListSchema>;
export type TTemplateDataField = z.infer<typeof ZTemplateDataFieldSchema>;
