import type { TParticipantProblem } from "@/lib/domain/options";
import type { TRuleProblem } from "@/lib/services/participants/build-participant-problems-error";

/** `problems` prefixed with `prefix` (e.g. `parties.0.participant`), or as they are for `""`. */
export function prefixProblems(prefix: string, problems: readonly TParticipantProblem[]): TRuleProblem[] {
  return problems.map(({ path, message, code }) => ({
    path: [...(prefix ? [prefix] : []), ...path].join("."),
    message,
    code,
  }));
}
