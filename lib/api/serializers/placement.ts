import { answerValuesOf } from "./answer-values";
import { PLACEMENT_FIELDS, type TPlacement } from "@/lib/schemas/placement";
import type { TPlacementRow } from "@/lib/services/placements/placement-row";

/** A box as `/v1/contracts/{id}/placements` answers it: its table's answered fields. */
export function serializePlacement(row: TPlacementRow): TPlacement {
  return answerValuesOf(PLACEMENT_FIELDS, row) as TPlacement;
}
