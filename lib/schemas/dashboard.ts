import { z } from "zod";

import { DASHBOARD_FAILURES_SHOWN, DASHBOARD_ITEMS_SHOWN, DASHBOARD_TILES } from "@/lib/domain/dashboard";

import { ZIdSchema, ZTimestampSchema } from "./common";
import { ZDateSchema } from "./lifecycle";

export const ZDashboardSchema = z
  .object({
    as_of: ZTimestampSchema.meta({ description: "The time the windows are measured from." }),
    tiles: z.array(
      z.object({
        key: z.enum(DASHBOARD_TILES).meta({
          description:
            "`awaiting_me`: pending contracts waiting for the caller's own signature; `delivery_failed`: pending contracts with an invitation that could not be " +
            "delivered; `expiring`: pending contracts whose signing period ends within 7 days; `declined`: declined in the last 30 days; " +
            "`untouched_drafts`: drafts not changed for 14 days; `notice_deadlines`: a notice deadline today or in the 29 days after; " +
            "`ending`: ending (`lifecycle_state.end_date`) today or in the 89 days after; `renewed`: renewed since the month began. Days are UTC's.",
        }),
        count: z.number().int().min(0),
        query: z.record(z.string(), z.string()).meta({ description: "The `GET /v1/contracts` filters (and sort) that list exactly these contracts." }),
        items: z
          .array(
            z.object({
              id: ZIdSchema,
              name: z.string(),
              workspace_id: ZIdSchema,
              end_date: ZDateSchema.nullable(),
              notice_deadline: ZDateSchema.nullable(),
              renewed_time: ZTimestampSchema.nullable(),
            }),
          )
          .optional()
          .meta({ description: `On the lifecycle tiles (\`notice_deadlines\`, \`ending\`, \`renewed\`): the first ${DASHBOARD_ITEMS_SHOWN} contracts of the list, in its order.` }),
      }),
    ),
    delivery_failures: z
      .array(
        z.object({
          contract_id: ZIdSchema,
          contract_name: z.string(),
          party_id: ZIdSchema,
          participant_id: ZIdSchema,
          name: z.string(),
          email: z.string(),
          reason: z.string().meta({ description: "The mail server's reply, or why the last retry failed." }),
          failed_time: ZTimestampSchema,
        }),
      )
      .meta({ description: `The newest ${DASHBOARD_FAILURES_SHOWN} undelivered invitations of pending contracts, until staff send them again or correct the address.` }),
  })
  .meta({ id: "Dashboard" });

export type TDashboard = z.infer<typeof ZDashboardSchema>;
