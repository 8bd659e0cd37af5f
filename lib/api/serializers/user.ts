import type { TUser } from "@/lib/schemas";
import type { TUserRow } from "@/lib/services/users/user-row";

export function serializeUser(row: TUserRow): TUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    title: row.title,
    phone_number: row.phoneNumber,
    active: row.active,
    is_admin: row.isAdmin,
  } satisfies TUser;
}
