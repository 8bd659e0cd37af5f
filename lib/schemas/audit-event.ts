import { z } from "zod";

import { ZIdSchema, ZTimestampSchema } from "./common";
import { ZPaginatedSchema } from "./pagination";

// A contract's audit trail (docs/events.md): GET /v1/contracts/{contract_id}/events.

export const AUDIT_ACTOR_TYPES = ["user", "api_token", "signer", "system"] as const;
export const AUDIT_VIAS = ["api_token", "session", "signing_link", "system"] as const;

export const ZAuditActorSchema = z
  .object({
    type: z.enum(AUDIT_ACTOR_TYPES).meta({
      description:
        "`user`: a person (through the web app or an API token); `api_token`: a token without a user (the anonymous admin); " +
        "`signer`: a participant through their signing link; `system`: the app itself (background jobs).",
    }),
    id: z.number().int().nullable().meta({
      description: "The user's id for `user`, the token's for `api_token`, the participant's for `signer` when the event is about them; else null.",
    }),
    name: z.string().meta({
      description: "The user's or participant's name at the time of the event (a later rename does not change it), the token's name, `Signer` when the participant is not known, or `System`.",
    }),
    email: z.string().optional().meta({ description: "The user's or signer's e-mail at the time of the event, for `user` and `signer` (absent when not known)." }),
    api_token: z
      .object({ id: ZIdSchema, name: z.string() })
      .optional()
      .meta({ description: "The API token a user acted through, when they did (its name only; never the secret)." }),
  })
  .meta({ id: "AuditActor" });

export const ZAuditChangeSchema = z
  .object({
    field: z.string().meta({ description: "The attribute's API name; nested ones dotted, e.g. `_permissions.contract:update`." }),
    from: z.unknown().meta({ description: "The value before; null when it had none (a creation)." }),
    to: z.unknown().meta({ description: "The value after; null when it has none (a deletion)." }),
  })
  .meta({ id: "AuditChange" });

export const ZAuditEventSchema = z
  .object({
    id: ZIdSchema,
    created_time: ZTimestampSchema,
    action: z.string().meta({ description: "`<entity>.<verb>`, e.g. `participant.update`, `contract.create`.", example: "participant.update" }),
    entity_type: z.string().meta({ description: "What changed: `contract`, `party`, `participant`, `data_field`, …" }),
    entity_id: ZIdSchema,
    actor: ZAuditActorSchema,
    via: z.enum(AUDIT_VIAS).meta({ description: "How the actor came in." }),
    changes: z.array(ZAuditChangeSchema).meta({ description: "Each changed attribute, from its value before to its value after." }),
  })
  .meta({ id: "AuditEvent" });

export const ZAuditEventListSchema = ZPaginatedSchema(ZAuditEventSchema).meta({ id: "AuditEventList" });

export type TAuditActor = z.infer<typeof ZAuditActorSchema>;
export type TAuditChange = z.infer<typeof ZAuditChangeSchema>;
export type TAuditEvent = z.infer<typeof ZAuditEventSchema>;
export type TAuditEventList = z.infer<typeof ZAuditEventListSchema>;
