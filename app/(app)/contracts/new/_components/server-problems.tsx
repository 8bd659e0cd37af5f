"use client";

import type { Ref } from "react";
import { ATTRIBUTE_LABELS } from "@/components/participant-fields";
import { asSentence, fieldProblem } from "@/components/problems";

const PARTY_FIELDS: Record<string, string> = {
  name: "Company name",
  country_code: "Country",
  identification_number: "Registration number",
  participants: "Participants",
  type: "Type",
};
const CONTRACT_FIELDS: Record<string, string> = {
  name: "Contract name",
  workspace_id: "Workspace",
  template_id: "Template",
  lifecycle_settings: "Term",
  "lifecycle_settings.duration": "Term: Duration",
  "lifecycle_settings.start_date": "Term: Start date",
  "lifecycle_settings.end_date": "Term: End date",
  "lifecycle_settings.initial_duration": "Term: Initial duration",
  "lifecycle_settings.renewal_period": "Term: Renewal period",
  "lifecycle_settings.notice_period": "Term: Notice period",
  // The API's key for a problem with the request as a whole.
  $: "Request",
};

/** Where a `parameter_problems` path points, in the wizard's words: "Counterparty 1, participant 2: E-mail". */
export function describeProblemPath(path: string): string {
  const parts = path.split(".");
  if (parts[0] !== "parties") return CONTRACT_FIELDS[path] ?? path;
  const where = [`Counterparty ${Number(parts[1]) + 1}`];
  let rest = parts.slice(2);
  if (rest[0] === "participants" && rest[1] !== undefined) {
    where.push(`participant ${Number(rest[1]) + 1}`);
    rest = rest.slice(2);
  } else if (rest[0] === "participant") {
    where.push("person");
    rest = rest.slice(1);
  } else {
    return `${where[0]}: ${PARTY_FIELDS[rest.join(".")] ?? rest.join(".")}`;
  }
  const attribute = rest.join(".");
  return `${where.join(", ")}: ${ATTRIBUTE_LABELS[attribute] ?? attribute}`;
}

type TServerProblemsProps = {
  detail: string;
  problems: Record<string, string[]>;
  ref?: Ref<HTMLDivElement>;
};

/** What the API refused, all of it in one place; each problem also stands next to its field. */
export function ServerProblems({ detail, problems, ref }: TServerProblemsProps) {
  const entries = Object.entries(problems);
  return (
    <div ref={ref} tabIndex={-1} role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {/* With problems listed, the API's detail only repeats the first of them; each field's message stands next to it, so the list names where, not what again. */}
      <p className="font-semibold">{entries.length > 0 ? "The contract was not created. Please fix:" : `The contract was not created. ${asSentence(detail)}`}</p>
      {entries.length > 0 ? (
        <ul className="mt-1 list-disc pl-5">
          {entries.map(([path, messages]) => (
            <li key={path}>{path === "$" ? fieldProblem(messages) : describeProblemPath(path)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
