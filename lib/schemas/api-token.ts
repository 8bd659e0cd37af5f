import { z } from "zod";

import { ZIdSchema, ZNameSchema, ZTimestampSchema, requestObject } from "./common";

// Web-app only (token management is session-only and not part of /v1 or its OpenAPI document).

export const ZCreateApiTokenRequestSchema = requestObject({
  name: ZNameSchema.meta({ description: "What the token is for, e.g. the system that uses it." }),
});

export const ZApiTokenSchema = z.object({
  id: ZIdSchema,
  name: z.string(),
  prefix: z.string().meta({ description: "The token's first characters, to recognise it; never enough to use it." }),
  created_time: ZTimestampSchema,
  last_used_time: ZTimestampSchema.nullable(),
  revoked_time: ZTimestampSchema.nullable(),
});

/** The only answer that carries the token itself; it is never shown again. */
export const ZCreateApiTokenResponseSchema = ZApiTokenSchema.extend({ token: z.string() });

export type TCreateApiTokenRequest = z.infer<typeof ZCreateApiTokenRequestSchema>;
export type TApiToken = z.infer<typeof ZApiTokenSchema>;
export type TCreateApiTokenResponse = z.infer<typeof ZCreateApiTokenResponseSchema>;
