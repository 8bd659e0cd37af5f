import { z } from "zod";

import { ZLinkSchema } from "./common";
import { ZPaginatedSchema } from "./pagination";

/** One documented `error_code` (GET /v1/error_codes/{code}; the `type` of every error body links here). */
export const ZErrorCodeSchema = z
  .object({
    error_code: z.number().int().meta({ example: 4000001 }),
    key: z.string().meta({ description: "A stable name for the code.", example: "validation_failed" }),
    status: z.number().int().meta({ example: 400 }),
    title: z.string().meta({ example: "Bad Request" }),
    description: z.string(),
    _links: z.object({ self: ZLinkSchema }),
  })
  .meta({ id: "ErrorCode" });

export const ZErrorCodeListSchema = ZPaginatedSchema(ZErrorCodeSchema).meta({ id: "ErrorCodeList" });

export const ZErrorCodePathParamsSchema = z.object({
  code: z.string().regex(/^\d{7}$/).meta({ description: "The 7-digit error code.", example: "4000001" }),
});

export type TErrorCode = z.infer<typeof ZErrorCodeSchema>;
export type TErrorCodeList = z.infer<typeof ZErrorCodeListSchema>;
