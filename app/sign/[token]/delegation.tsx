"use client";

import { useState, type FormEvent } from "react";
import { fetchJson, RequestError } from "@/lib/client/fetch-json";
import { ERROR_CODES } from "@/lib/domain/error-codes";

// The signing page's parts for signing order and delegation (docs/signing.md "Signing order",
// "Delegation"): the waiting notice, handing the signature on, and what the page says afterwards.

/** An ordered contract whose earlier stages have not all signed: nothing to do yet. */
export function WaitingForTurn() {
  return (
    <section aria-labelledby="waiting-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="waiting-heading" className="text-lg font-semibold text-slate-900">
        Waiting for others to sign first
      </h2>
      <p role="status" className="mt-2 text-sm text-slate-700">
        This contract is signed in order, and it is not your turn yet. You will get an e-mail as soon as it is; this link will then let you sign.
      </p>
    </section>
  );
}

/** After handing on: the link no longer works, so the page says so once. */
export function DelegatedNotice({ delegateName }: { delegateName: string }) {
  return (
    <section aria-labelledby="delegated-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 id="delegated-heading" className="text-2xl font-semibold text-slate-900">
        You have handed this on
      </h1>
      <p role="status" className="mt-2 text-slate-700">
        {delegateName} has been asked to sign in your place and gets their own link by e-mail. Your link no longer works.
      </p>
    </section>
  );
}

const FIELDS = ["name", "email", "reason"] as const;
type TField = (typeof FIELDS)[number];

/**
 * "Someone else should sign": name, e-mail and an optional reason; `code`, the e-mailed code typed
 * above, when the signatory's signing needs one (undefined when it does not). Too many wrong codes
 * lock the link (`onLocked`).
 */
export function DelegateSection({ base, code, onDelegated, onLocked }: { base: string; code: string | undefined; onDelegated: (delegateName: string) => void; onLocked: () => void }) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Record<TField, string>>({ name: "", email: "", reason: "" });
  const [errors, setErrors] = useState<Partial<Record<TField, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} className="mt-4 block text-sm font-medium text-blue-800 underline">
        Someone else should sign this
      </button>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setErrors({});
    try {
      const answer = await fetchJson<{ delegate_name: string }>(`${base}/delegate`, { method: "POST", body: JSON.stringify({ ...values, ...(code !== undefined ? { code } : {}) }) });
      onDelegated(answer.delegate_name);
    } catch (e) {
      if (e instanceof RequestError && e.errorCode === ERROR_CODES.two_step_locked.code) {
        onLocked();
        return;
      }
      const byField: Partial<Record<TField, string>> = {};
      if (e instanceof RequestError) {
        for (const field of FIELDS) {
          const first = e.parameterProblems[field]?.[0];
          if (first) byField[field] = first;
        }
      }
      setErrors(byField);
      // The code is typed above, with signing's: its problem is this form's one sentence.
      const codeProblem = e instanceof RequestError ? e.parameterProblems.code?.[0] : undefined;
      if (Object.keys(byField).length === 0) setError(codeProblem ?? (e instanceof Error ? e.message : "Something went wrong."));
    } finally {
      setBusy(false);
    }
  }

  const field = (name: TField, label: string, props: { type?: string; autoComplete?: string; multiline?: boolean }) => (
    <div>
      <label className="block text-sm font-medium text-slate-800">
        {label}
        {props.multiline ? (
          <textarea
            value={values[name]}
            onChange={(e) => setValues({ ...values, [name]: e.target.value })}
            rows={2}
            maxLength={2000}
            aria-invalid={errors[name] ? true : undefined}
            aria-describedby={errors[name] ? `delegate-${name}-error` : undefined}
            className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
          />
        ) : (
          <input
            type={props.type ?? "text"}
            autoComplete={props.autoComplete}
            value={values[name]}
            onChange={(e) => setValues({ ...values, [name]: e.target.value })}
            aria-invalid={errors[name] ? true : undefined}
            aria-describedby={errors[name] ? `delegate-${name}-error` : undefined}
            className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
          />
        )}
      </label>
      {errors[name] && (
        <p id={`delegate-${name}-error`} role="alert" className="text-sm text-red-800">
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <form onSubmit={submit} aria-labelledby="delegate-heading" className="mt-6 space-y-3 border-t border-slate-200 pt-4">
      <h3 id="delegate-heading" className="text-base font-semibold text-slate-900">
        Ask someone else to sign
      </h3>
      <p className="text-sm text-slate-700">
        They get their own link by e-mail and sign in your place; your link stops working.{code !== undefined && " Type the code from your e-mail above first."}
      </p>
      {field("name", "Their full name", { autoComplete: "off" })}
      {field("email", "Their e-mail address", { type: "email", autoComplete: "off" })}
      {field("reason", "Why? (optional, they will see it)", { multiline: true })}
      {error && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      )}
      <div className="flex gap-3">
        <button type="submit" disabled={busy} className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-50">
          Hand it on
        </button>
        <button type="button" onClick={() => setOpen(false)} className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800">
          Cancel
        </button>
      </div>
    </form>
  );
}
