import { z } from "zod";

/** The one error body of every /v1 answer that is not a success (docs/api.md "Errors"). */
export const ZApiErrorSchema = z
  .object({
    status: z.number().int().meta({ example: 400 }),
    title: z.string().meta({ example: "Bad Request" }),
    detail: z.string().meta({ example: "The request body is not valid." }),
    error_code: z
      .number()
      .int()
      .meta({ description: "Begins with the HTTP status; codes ending in 0000 are generic.", example: 4000003 }),
    type: z.string().meta({ description: "Address of the error code's documentation." }),
    request_id: z.string().meta({ description: "Also in the server's log line of this request." }),
    parameter_problems: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .meta({
        description: "Messages per offending field path, e.g. `parties.0.participants.0.email`.",
        example: { "parties.0.participants.0.email": ["required when delivery_channel is email"] },
      }),
  })
  .meta({ id: "Error" });

export type TApiError = z.infer<typeof ZApiErrorSchema>;
