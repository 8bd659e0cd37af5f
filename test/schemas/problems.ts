import type { z } from "zod";

/** A failed parse as `{ "dotted.path": [messages] }`, the way clients and forms see it. */
export function problemsOf(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  const problems: Record<string, string[]> = {};
  for (const issue of result.error.issues) (problems[issue.path.join(".")] ??= []).push(issue.message);
  return problems;
}
