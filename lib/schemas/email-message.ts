import { z } from "zod";

import { EMAIL_STATUSES } from "@/lib/domain/enums";
import { ZIdParamSchema, ZIdSchema, ZTimestampSchema, oneOf } from "./common";
import { ZPaginatedSchema, ZPaginationQuerySchema } from "./pagination";

export const ZEmailStatusSchema = oneOf(EMAIL_STATUSES)
  .meta({
    id: "EmailStatus",
    description:
      "`queued` waits for (another) attempt, `sending` is claimed by a deliverer, `sent` was accepted by the SMTP server, " +
      "`failed` was given up (5xx reply, or 8 attempts), `kept` was not sent because no SMTP server is configured, " +
      "`undeliverable` cannot be sent by this deployment (e.g. SMS).",
  });

export const ZEmailMessageListQuerySchema = ZPaginationQuerySchema({ allowAll: false }).extend({
  contract_id: ZIdParamSchema.optional().meta({ description: "Only messages about this contract." }),
  status: ZEmailStatusSchema.optional().meta({ description: "Only messages in this status." }),
});

export const ZEmailMessageSchema = z
  .object({
    id: ZIdSchema,
    created_time: ZTimestampSchema,
    kind: z.string().meta({ description: "`invitation`, `two_step_code`, `two_step_lock` (to the staff: wrong codes locked a link), `signed`, `declined`, `reminder`." }),
    to: z.string().meta({ description: "The recipient's address." }),
    subject: z.string(),
    body: z.string().meta({
      description:
        "The plain text. For a `kept` message the signing link and code are filled in (the demo has no other way to " +
        "reach them); for every other status they show as `[signing link]` and `[code]`.",
    }),
    status: ZEmailStatusSchema,
    attempts: z.number().int().meta({ description: "Attempts to send so far." }),
    last_error: z.string().meta({ description: "Why the last attempt failed (the SMTP reply), or why it cannot be sent; empty when none." }),
    sent_time: ZTimestampSchema.nullable().meta({ description: "When the SMTP server accepted it; null until then." }),
    next_attempt_time: ZTimestampSchema.nullable().meta({ description: "When a `queued` message is next tried; null in other statuses." }),
    contract_id: ZIdSchema.nullable(),
    participant_id: ZIdSchema.nullable().meta({ description: "The recipient participant (it may have been deleted since); null when none." }),
    attachment_file_id: ZIdSchema.nullable().meta({
      description: "The contract's file sent along as an attachment (the sealed copy: `GET /v1/contracts/{contract_id}/files/{attachment_file_id}`); null when none.",
    }),
  })
  .meta({ id: "EmailMessage" });

export const ZEmailMessageListSchema = ZPaginatedSchema(ZEmailMessageSchema).meta({ id: "EmailMessageList" });

export type TEmailMessageListQuery = z.infer<typeof ZEmailMessageListQuerySchema>;
export type TEmailMessage = z.infer<typeof ZEmailMessageSchema>;
export type TEmailMessageList = z.infer<typeof ZEmailMessageListSchema>;
