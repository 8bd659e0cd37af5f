"use client";

// The text editor of a template and of a draft contract (docs/web-app.md "Documents"): sections
// edited in a form, checked as you type with the shared body schema and the placeholder rule the API
// applies, and a preview of the result. Each owner loads, renders and saves its own text.
import { useId, type ReactNode } from "react";
import { DocumentText } from "@/components/contract-document";
import { fieldProblem } from "@/components/problems";
import { RequestError } from "@/lib/client/fetch-json";
import { bodyProblems, type TBody, type TDocSection } from "@/lib/domain/contract-document";
import { ZBodySchema } from "@/lib/schemas/document";

/** What is wrong with a body, by `parameter_problems` path: the shared schema's problems, then the placeholders'. */
export function bodyFormProblems(body: TBody, customIds: readonly string[], owner: "template" | "contract"): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const parsed = ZBodySchema.safeParse(body);
  if (!parsed.success) for (const issue of parsed.error.issues) (problems[["body", ...issue.path.map(String)].join(".")] ??= []).push(issue.message);
  for (const [path, messages] of Object.entries(bodyProblems(body, customIds, owner))) (problems[path] ??= []).push(...messages);
  return problems;
}

/** How placeholders are written, and the data fields the text may name. */
export function PlaceholderHelp({ children, fields }: { children: ReactNode; fields: readonly { name: string; custom_id: string }[] }) {
  return (
    <p className="mt-2 max-w-3xl text-sm text-slate-600">
      {children} Write <code>{"{{field.custom_id}}"}</code> for a data field&apos;s value, <code>{"{{parties}}"}</code> and{" "}
      <code>{"{{signatories}}"}</code> for who is signing; a blank line starts a new paragraph. Data fields:{" "}
      {fields.length === 0 ? "none" : fields.map((f) => `${f.name} (${f.custom_id})`).join(", ")}.
    </p>
  );
}

/** The save call, as a TanStack mutation of the body offers it. */
export interface TBodySave {
  mutate: (body: TBody) => void;
  reset: () => void;
  isPending: boolean;
  isSuccess: boolean;
  error: Error | null;
}

/**
 * The sections of `body` as a form: a heading and a text each, one sentence next to a field when
 * something is wrong with it (`problems`, or the API's refusal of the last save), Add a section,
 * Remove, and Save text (held back while anything is wrong). `children` join the form's buttons.
 */
export function BodyForm({
  label,
  body,
  onChange,
  problems,
  save,
  children,
}: {
  label: string;
  body: TBody;
  onChange: (body: TBody) => void;
  problems: Record<string, string[]>;
  save: TBodySave;
  children?: ReactNode;
}) {
  const id = useId();
  const serverProblems = save.error instanceof RequestError ? save.error.parameterProblems : {};
  const problemOf = (...paths: string[]) => fieldProblem(paths.flatMap((path) => [...(problems[path] ?? []), ...(serverProblems[path] ?? [])]));
  // An answer is about the text it was given: the next change leaves it behind.
  const change = (next: TBody) => {
    if (save.isSuccess || save.error) save.reset();
    onChange(next);
  };
  const setSection = (index: number, patch: Partial<TBody["sections"][number]>) =>
    change({ sections: body.sections.map((s, i) => (i === index ? { ...s, ...patch } : s)) });
  const invalid = Object.keys(problems).length > 0;
  const bodyProblem = problemOf("body", "body.sections");
  // The API's refusal, unless every problem in it is said next to its field already.
  const shownPath = (path: string) => path === "body" || path === "body.sections" || Number(path.match(/^body\.sections\.(\d+)\.(?:heading|text)$/)?.[1] ?? Infinity) < body.sections.length;
  const serverPaths = Object.keys(serverProblems);
  const saveError = save.error && !(serverPaths.length > 0 && serverPaths.every(shownPath)) ? save.error : null;

  return (
    <form
      aria-label={label}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!invalid) save.mutate(body);
      }}
    >
      {body.sections.map((section, i) => {
        const headingProblem = problemOf(`body.sections.${i}.heading`);
        const textProblem = problemOf(`body.sections.${i}.text`);
        return (
          <fieldset key={i} className="mb-4 rounded-lg border border-slate-200 bg-white p-3">
            <legend className="px-1 text-sm font-medium text-slate-700">Section {i + 1}</legend>
            <label className="block text-sm font-medium text-slate-800" htmlFor={`${id}-heading-${i}`}>
              Heading
            </label>
            <input
              id={`${id}-heading-${i}`}
              className="mt-1 w-full rounded border border-slate-300 px-2 py-1"
              value={section.heading}
              aria-invalid={headingProblem ? true : undefined}
              aria-describedby={headingProblem ? `${id}-heading-${i}-problem` : undefined}
              onChange={(e) => setSection(i, { heading: e.target.value })}
            />
            {headingProblem ? (
              <p id={`${id}-heading-${i}-problem`} className="mt-1 text-sm text-red-800">
                {headingProblem}
              </p>
            ) : null}
            <label className="mt-2 block text-sm font-medium text-slate-800" htmlFor={`${id}-text-${i}`}>
              Text
            </label>
            <textarea
              id={`${id}-text-${i}`}
              rows={5}
              className="mt-1 w-full rounded border border-slate-300 px-2 py-1 font-mono text-sm"
              value={section.text}
              aria-invalid={textProblem ? true : undefined}
              aria-describedby={textProblem ? `${id}-text-${i}-problem` : undefined}
              onChange={(e) => setSection(i, { text: e.target.value })}
            />
            {textProblem ? (
              <p id={`${id}-text-${i}-problem`} className="mt-1 text-sm text-red-800">
                {textProblem}
              </p>
            ) : null}
            <button type="button" className="mt-2 text-sm text-red-800 underline" onClick={() => change({ sections: body.sections.filter((_, j) => j !== i) })}>
              Remove section {i + 1}
            </button>
          </fieldset>
        );
      })}
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className="rounded border border-slate-300 px-3 py-1.5 text-sm" onClick={() => change({ sections: [...body.sections, { heading: "", text: "" }] })}>
          Add a section
        </button>
        <button type="submit" disabled={invalid || save.isPending} className="rounded bg-blue-700 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">
          {save.isPending ? "Saving…" : "Save text"}
        </button>
        {children}
        {save.isSuccess && !save.isPending ? (
          <p role="status" className="text-sm text-emerald-800">
            Saved.
          </p>
        ) : null}
      </div>
      {bodyProblem ? <p className="mt-2 text-sm text-red-800">{bodyProblem}</p> : null}
      {saveError ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {saveError instanceof RequestError ? saveError.message : "Saving failed."}
        </p>
      ) : null}
    </form>
  );
}

/** The text as it will read: `title` above the laid-out sections; `children` (a note) above the article. */
export function BodyPreview({ title, sections, headingLevel = 2, children }: { title: string; sections: readonly TDocSection[]; headingLevel?: 2 | 3; children?: ReactNode }) {
  const id = useId();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby={`${id}-preview`}>
      <Heading id={`${id}-preview`} className="text-lg font-semibold text-slate-900">
        Preview
      </Heading>
      {children}
      <article aria-label="Preview of the text" className="mt-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <p className="mb-3 text-xl font-semibold">{title}</p>
        <DocumentText sections={sections} />
      </article>
    </section>
  );
}
