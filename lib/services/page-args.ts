import type { TPagination } from "@/lib/schemas/pagination";

/** `skip`/`take` for a Prisma `findMany`; `limit=all` takes everything from `offset` on. */
export function pageArgs({ limit, offset }: TPagination): { skip: number; take?: number } {
  return limit === "all" ? { skip: offset } : { skip: offset, take: limit };
}
