import { DomainError, summarize, type TParameterProblems } from "@/lib/domain/errors";
import type { TParticipantProblem } from "@/lib/domain/options";

/** A domain rule a participant breaks, with its path already prefixed (e.g. `parties.0.participants.1.email`). */
export type TRuleProblem = {
  path: string;
  message: string;
  code: TParticipantProblem["code"] | "owner_participant_email_immutable";
};

/**
 * Which code answers when one request breaks rules of several kinds. The first that occurs wins:
 * the one a client most likely has to fix first (an immutable e-mail or an option the template does
 * not offer makes the other problems moot). Every problem is still listed in `parameter_problems`.
 */
const PRECEDENCE: readonly TRuleProblem["code"][] = [
  "owner_participant_email_immutable",
  "option_not_offered",
  "participant_attribute_missing",
  "signatory_requires_contract_update",
];

/** The one 400 for a non-empty list of rule problems, or null when there are none. */
export function participantProblemsError(problems: readonly TRuleProblem[]): DomainError | null {
  const first = PRECEDENCE.find((code) => problems.some((problem) => problem.code === code));
  if (first === undefined) return null;
  const parameterProblems: TParameterProblems = {};
  for (const { path, message } of problems) {
    const list = (parameterProblems[path] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return new DomainError(first, summarize(parameterProblems), { parameterProblems });
}
