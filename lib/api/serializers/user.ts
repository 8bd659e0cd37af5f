import type { Prisma } from "@/lib/generated/prisma/client";
import type { TUser } from "@/lib/schemas";

/** Only what the API shows of a user: never sessions, accounts or other auth columns. */
export const USER_SELECT = {
  id: true,
  name: true,
  email: true,
  title: true,
  phoneNumber: true,
  active: true,
  isAdmin: true,
} as const satisfies Prisma.UserSelect;

export type TUserRow = Prisma.UserGetPayload<{ select: typeof USER_SELECT }>;

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
