import { z } from "zod";

/** `GET /v1/ping` answers this only once the database is migrated and seeded (docs/api.md "Resources"). */
export const ZPingSchema = z.object({ status: z.literal("ok") }).meta({ id: "Ping" });

export type TPing = z.infer<typeof ZPingSchema>;
