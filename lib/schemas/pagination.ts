import { z } from "zod";

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 100;
export const MAX_OFFSET = 19_900;

const integerString = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be an integer between ${min} and ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));

/** `limit` and `offset` of spec section 8; `all` only where `allowAll` (a contract's child lists). */
export function ZPaginationQuerySchema(options: { allowAll: boolean }) {
  const limit = options.allowAll
    ? z.union([z.literal("all"), integerString("limit", 1, MAX_LIMIT)], {
        error: `limit must be an integer between 1 and ${MAX_LIMIT}, or all`,
      })
    : integerString("limit", 1, MAX_LIMIT);
  return z.object({
    limit: limit.default(DEFAULT_LIMIT).meta({
      description: options.allowAll
        ? `1 to ${MAX_LIMIT}, or \`all\` for every item at once. Default ${DEFAULT_LIMIT}.`
        : `1 to ${MAX_LIMIT}. Default ${DEFAULT_LIMIT}.`,
    }),
    offset: integerString("offset", 0, MAX_OFFSET)
      .default(0)
      .meta({ description: `0 to ${MAX_OFFSET}. Default 0.` }),
  });
}

export type TPagination = { limit: number | "all"; offset: number };

/** The list envelope of docs/api.md "Pagination" as the API answers it (built by lib/api/pagination.ts). */
export interface TPaginated<T> {
  count: number;
  data: T[];
  _links: {
    self: { href: string };
    next: { href: string | null };
    previous: { href: string | null };
  };
}

const ZLinkSchema = z.object({ href: z.string().nullable() });

/** The paginated list envelope of docs/api.md "Pagination". */
export function ZPaginatedSchema<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int().meta({ description: "Total after permissions and filters; not changed by limit or offset." }),
    data: z.array(item),
    _links: z.object({
      self: z.object({ href: z.string() }),
      next: ZLinkSchema,
      previous: ZLinkSchema,
    }),
  });
}
