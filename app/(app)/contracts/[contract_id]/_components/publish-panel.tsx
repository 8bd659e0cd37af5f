"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { RequestError } from "@/lib/client/fetch-json";
import { missingValueSentence } from "@/lib/domain/contract-document";
import type { TContract } from "@/lib/schemas/contract";
import type { TPublishReadiness } from "@/lib/schemas/publish";
import { readinessQuery, usePublish } from "./lifecycle-queries";

/**
 * A readiness problem as staff read it: a data field by its name (the API's sentence adds its custom
 * id, for clients); every other problem in the API's words, which already name people and parties.
 */
function checklistLine(problem: TPublishReadiness["problems"][number]): string {
  return problem.missing_data_field ? missingValueSentence({ name: problem.missing_data_field.name }) : problem.message;
}

/**
 * A draft's way out: the readiness checklist (what is missing, by name), the invitation's subject
 * and message, and Publish. Shown to those who may change the contract.
 */
export function PublishPanel({ contract }: { contract: TContract }) {
  const readiness = useQuery(readinessQuery(contract.id));
  const publish = usePublish(contract.id);
  const [subject, setSubject] = useState("");
  const [message, setMessage] = useState("");
  const titleId = useId();
  const ready = readiness.data?.ready === true;

  function submit(event: FormEvent) {
    event.preventDefault();
    publish.mutate({ ...(subject.trim() ? { subject: subject.trim() } : {}), ...(message.trim() ? { message: message.trim() } : {}) });
  }

  const refusal = publish.error instanceof RequestError ? publish.error : null;
  return (
    <section aria-labelledby={titleId} className="mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        Publish
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Publishing sends each participant a personal link to read and sign; the contract can then no longer gain or lose parties.
      </p>
      {readiness.isPending ? (
        <p className="mt-3 text-sm text-slate-600">Checking whether the contract is ready…</p>
      ) : readiness.isError ? (
        <p className="mt-3 text-sm text-red-800">Could not check whether the contract is ready.</p>
      ) : ready ? (
        <p className="mt-3 text-sm font-medium text-emerald-800">Ready to publish.</p>
      ) : (
        <div className="mt-3">
          <p className="text-sm font-medium text-slate-900">Before publishing:</p>
          <ul aria-label="What is missing" className="mt-1 list-disc space-y-1 pl-5 wrap-anywhere text-sm text-amber-900">
            {readiness.data.problems.map((problem, i) => (
              // Not the path alone: the uploaded PDF's box problems share one.
              <li key={`${i}:${problem.path}`}>{checklistLine(problem)}</li>
            ))}
          </ul>
        </div>
      )}
      <form onSubmit={submit} className="mt-4 grid gap-3">
        <label className="grid gap-1 text-sm font-medium text-slate-800">
          Subject of the invitation (optional)
          <input
            value={subject}
            onChange={(e) => setSubject(e.target.value)}
            maxLength={200}
            placeholder={`Please sign: ${contract.name}`}
            className="rounded-md border border-slate-300 px-3 py-2 font-normal"
          />
        </label>
        <label className="grid gap-1 text-sm font-medium text-slate-800">
          Message (optional)
          <textarea value={message} onChange={(e) => setMessage(e.target.value)} maxLength={5000} rows={3} className="rounded-md border border-slate-300 px-3 py-2 font-normal" />
        </label>
        {refusal ? (
          <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
            <p>{refusal.message}</p>
            {Object.keys(refusal.parameterProblems).length > 0 ? (
              <ul className="mt-1 list-disc pl-5">
                {Object.values(refusal.parameterProblems).flat().map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        <div>
          <button
            type="submit"
            disabled={!ready || publish.isPending}
            className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {publish.isPending ? "Publishing…" : "Publish"}
          </button>
        </div>
      </form>
    </section>
  );
}
