import { z } from "zod";

import { ZIdSchema } from "./common";
import { ZPaginatedSchema } from "./pagination";

export const ZUserSchema = z
  .object({
    id: ZIdSchema,
    name: z.string(),
    email: z.string(),
    title: z.string(),
    phone_number: z.string(),
    active: z.boolean().meta({ description: "Inactive users cannot sign in or be named in `x-service-user-email`." }),
    is_admin: z.boolean(),
  })
  .meta({ id: "User" });

export const ZUserListSchema = ZPaginatedSchema(ZUserSchema).meta({ id: "UserList" });

export type TUser = z.infer<typeof ZUserSchema>;
export type TUserList = z.infer<typeof ZUserListSchema>;
