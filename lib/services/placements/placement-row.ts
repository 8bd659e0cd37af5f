import { rowSelectOf } from "@/lib/schemas/field-table";
import { PLACEMENT_FIELDS } from "@/lib/schemas/placement";
import type { Prisma } from "@/lib/generated/prisma/client";

/** What a box's answer is made of (lib/api/serializers/placement.ts). */
export const PLACEMENT_SELECT = rowSelectOf(PLACEMENT_FIELDS) satisfies Prisma.PlacementSelect;

export type TPlacementRow = Prisma.PlacementGetPayload<{ select: typeof PLACEMENT_SELECT }>;
