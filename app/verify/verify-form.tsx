"use client";

import { useState, type FormEvent } from "react";

import type { TSealVerification } from "@/lib/schemas/seal";

type TState = { kind: "idle" } | { kind: "checking" } | { kind: "done"; result: TSealVerification } | { kind: "error"; message: string };

const TONE: Record<TSealVerification["verdict"], { title: string; className: string }> = {
  intact: { title: "Intact", className: "border-green-300 bg-green-50 text-green-900" },
  changed: { title: "Changed", className: "border-red-300 bg-red-50 text-red-900" },
  unknown: { title: "Unknown", className: "border-slate-300 bg-slate-50 text-slate-900" },
};

const when = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "—");

/** Sends the chosen file as the body of POST /v1/verify and shows the verdict. */
export function VerifyForm() {
  const [state, setState] = useState<TState>({ kind: "idle" });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = new FormData(event.currentTarget).get("file");
    if (!(file instanceof File) || file.size === 0) {
      setState({ kind: "error", message: "Choose a PDF file first." });
      return;
    }
    setState({ kind: "checking" });
    try {
      const res = await fetch("/v1/verify", { method: "POST", body: file, headers: { "Content-Type": "application/pdf" } });
      const body = (await res.json().catch(() => null)) as (TSealVerification & { message?: string }) | null;
      if (res.ok && body) setState({ kind: "done", result: body });
      else setState({ kind: "error", message: body?.message ?? `The check failed (HTTP ${res.status}).` });
    } catch {
      setState({ kind: "error", message: "The check could not reach the service. Try again." });
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <div>
        <label htmlFor="verify-file" className="block text-sm font-medium text-slate-800">
          Signed PDF
        </label>
        <input id="verify-file" name="file" type="file" accept="application/pdf,.pdf" className="mt-1 block w-full text-sm" onChange={() => setState({ kind: "idle" })} />
      </div>
      <button type="submit" disabled={state.kind === "checking"} className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-60">
        {state.kind === "checking" ? "Checking…" : "Check"}
      </button>
      <div aria-live="polite">
        {state.kind === "error" && (
          <p role="alert" className="text-sm text-red-700">
            {state.message}
          </p>
        )}
        {state.kind === "done" && (
          <section data-testid="verify-result" data-verdict={state.result.verdict} className={`rounded-md border p-4 text-sm ${TONE[state.result.verdict].className}`}>
            <h2 className="text-base font-semibold">{TONE[state.result.verdict].title}</h2>
            <p className="mt-1">{state.result.message}</p>
            {state.result.contract && (
              <dl className="mt-3 grid grid-cols-[auto,1fr] gap-x-4 gap-y-1">
                <dt className="font-medium">Contract</dt>
                <dd>
                  {state.result.contract.name} (id {state.result.contract.id})
                </dd>
                <dt className="font-medium">Completed</dt>
                <dd>{when(state.result.contract.completed_time)}</dd>
                <dt className="font-medium">Sealed</dt>
                <dd>{when(state.result.contract.sealed_time)}</dd>
              </dl>
            )}
            <p className="mt-3 break-all text-xs opacity-80">SHA-256 {state.result.sha256}</p>
          </section>
        )}
      </div>
    </form>
  );
}
