import { inScope, type TPreload } from "@/lib/db/sql";
import { updateTargetsSql, type TTargetIds } from "@/lib/services/participants/update-targets-sql";

const IN_SCOPE_C = inScope("c");

/** PUT …/participants/{id}: the update's targets, read with the caller's credentials. */
export function updateTargetsPreload(ids: TTargetIds): TPreload {
  return updateTargetsSql(ids, IN_SCOPE_C);
}
