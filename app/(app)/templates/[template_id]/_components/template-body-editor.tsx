"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { DocumentText } from "@/components/contract-document";
import { ErrorState, LoadingState } from "@/components/states";
import { fetchJson, RequestError } from "@/lib/client/fetch-json";
import { methodOf, pathOf, v1Queries } from "@/lib/client/v1";
import { bodyProblems, renderDocument, type TBody, type TDocParty } from "@/lib/domain/contract-document";
import type { TTemplateDetail } from "@/lib/schemas";

/** Stand-ins for the parties, so the preview reads like a contract. */
const SAMPLE_PARTIES: TDocParty[] = [
  { name: "Your company", type: "company", identificationNumber: "", countryCode: "", myParty: true, participants: [{ name: "Your signatory", title: "", email: "", signatory: true, signState: "undecided", signStateUpdatedAt: null }] },
  { name: "The counterparty", type: "company", identificationNumber: "", countryCode: "", myParty: false, participants: [{ name: "Their signatory", title: "", email: "", signatory: true, signState: "undecided", signStateUpdatedAt: null }] },
];

/**
 * A template's text: its sections edited on the left, the contract it makes on the right (data
 * fields show their default values, or are marked), and Save. Placeholders are checked as you
 * type, and again by the API.
 */
export function TemplateBodyEditor({ templateId }: { templateId: number }) {
  const queryClient = useQueryClient();
  const query = useQuery(v1Queries.template(templateId));
  const template = query.data as TTemplateDetail | undefined;
  const [body, setBody] = useState<TBody | null>(null);
  useEffect(() => {
    if (template && body === null) setBody(template.body);
  }, [template, body]);
  const save = useMutation({
    mutationFn: (next: TBody) =>
      fetchJson<TTemplateDetail>(pathOf("updateTemplate", { template_id: templateId }), { method: methodOf("updateTemplate"), body: JSON.stringify({ body: next }) }),
    onSuccess: (saved) => queryClient.setQueryData(v1Queries.template(templateId).queryKey, saved),
  });
  const customIds = useMemo(() => template?.data_fields.map((f) => f.custom_id) ?? [], [template]);
  const problems = useMemo(() => (body ? bodyProblems(body, customIds) : {}), [body, customIds]);
  const preview = useMemo(
    () =>
      body && template
        ? renderDocument({ name: template.name, body, parties: SAMPLE_PARTIES, dataFields: template.data_fields.map((f) => ({ customId: f.custom_id, name: f.name, value: f.default_value })) })
        : null,
    [body, template],
  );

  if (query.isPending) return <LoadingState label="Loading the template…" />;
  if (query.isError || !template) return <ErrorState title="Could not load the template." error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  if (!body) return <LoadingState label="Loading the template…" />;

  const serverProblems = save.error instanceof RequestError ? save.error.parameterProblems : {};
  const problemsOf = (path: string) => [...(problems[path] ?? []), ...(serverProblems[path] ?? [])];
  const setSection = (index: number, change: Partial<TBody["sections"][number]>) =>
    setBody({ sections: body.sections.map((s, i) => (i === index ? { ...s, ...change } : s)) });
  const invalid = Object.keys(problems).length > 0;

  return (
    <div className="max-w-7xl">
      <p className="text-sm">
        <Link href="/templates" className="text-blue-700 underline">
          Templates
        </Link>
      </p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">{template.name}: text</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600">
        Contracts created from this template copy this text. Write <code>{"{{field.custom_id}}"}</code> for a data field&apos;s value,{" "}
        <code>{"{{parties}}"}</code> and <code>{"{{signatories}}"}</code> for who is signing; a blank line starts a new paragraph.
        Data fields: {template.data_fields.length === 0 ? "none" : template.data_fields.map((f) => `${f.name} (${f.custom_id})`).join(", ")}.
      </p>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <form
          aria-label="Template text"
          onSubmit={(event) => {
            event.preventDefault();
            if (!invalid) save.mutate(body);
          }}
        >
          {body.sections.map((section, i) => {
            const textProblems = problemsOf(`body.sections.${i}.text`);
            const headingProblems = problemsOf(`body.sections.${i}.heading`);
            return (
              <fieldset key={i} className="mb-4 rounded-lg border border-slate-200 bg-white p-3">
                <legend className="px-1 text-sm font-medium text-slate-700">Section {i + 1}</legend>
                <label className="block text-sm font-medium text-slate-800" htmlFor={`heading-${i}`}>
                  Heading
                </label>
                <input
                  id={`heading-${i}`}
                  className="mt-1 w-full rounded border border-slate-300 px-2 py-1"
                  value={section.heading}
                  aria-invalid={headingProblems.length > 0}
                  aria-describedby={headingProblems.length > 0 ? `heading-${i}-problem` : undefined}
                  onChange={(e) => setSection(i, { heading: e.target.value })}
                />
                {headingProblems.length > 0 ? (
                  <p id={`heading-${i}-problem`} className="mt-1 text-sm text-red-800">
                    {headingProblems.join(" ")}
                  </p>
                ) : null}
                <label className="mt-2 block text-sm font-medium text-slate-800" htmlFor={`text-${i}`}>
                  Text
                </label>
                <textarea
                  id={`text-${i}`}
                  rows={5}
                  className="mt-1 w-full rounded border border-slate-300 px-2 py-1 font-mono text-sm"
                  value={section.text}
                  aria-invalid={textProblems.length > 0}
                  aria-describedby={textProblems.length > 0 ? `text-${i}-problem` : undefined}
                  onChange={(e) => setSection(i, { text: e.target.value })}
                />
                {textProblems.length > 0 ? (
                  <p id={`text-${i}-problem`} className="mt-1 text-sm text-red-800">
                    {textProblems.join(" ")}
                  </p>
                ) : null}
                <button type="button" className="mt-2 text-sm text-red-800 underline" onClick={() => setBody({ sections: body.sections.filter((_, j) => j !== i) })}>
                  Remove section {i + 1}
                </button>
              </fieldset>
            );
          })}
          <div className="flex flex-wrap items-center gap-3">
            <button type="button" className="rounded border border-slate-300 px-3 py-1.5 text-sm" onClick={() => setBody({ sections: [...body.sections, { heading: "", text: "" }] })}>
              Add a section
            </button>
            <button type="submit" disabled={invalid || save.isPending} className="rounded bg-blue-700 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">
              {save.isPending ? "Saving…" : "Save text"}
            </button>
            {save.isSuccess && !save.isPending ? <p role="status" className="text-sm text-emerald-800">Saved.</p> : null}
          </div>
          {problemsOf("body").length > 0 || problemsOf("body.sections").length > 0 ? (
            <p className="mt-2 text-sm text-red-800">{[...problemsOf("body"), ...problemsOf("body.sections")].join(" ")}</p>
          ) : null}
          {save.error ? (
            <p role="alert" className="mt-2 text-sm text-red-800">
              {save.error instanceof RequestError ? save.error.message : "Saving failed."}
            </p>
          ) : null}
        </form>
        <section aria-labelledby="preview-title">
          <h2 id="preview-title" className="text-lg font-semibold text-slate-900">
            Preview
          </h2>
          <article aria-label="Preview of the text" className="mt-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
            <p className="mb-3 text-xl font-semibold">{template.name}</p>
            {preview ? <DocumentText sections={preview.sections} /> : null}
          </article>
        </section>
      </div>
    </div>
  );
}
