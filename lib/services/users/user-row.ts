import type { Prisma } from "@/lib/generated/prisma/client";

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
