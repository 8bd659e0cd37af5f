"use client";

import dynamic from "next/dynamic";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { fetchJson, RequestError } from "@/lib/client/fetch-json";
import { ERROR_CODES } from "@/lib/domain/error-codes";
import type { TSigningPageView } from "@/lib/schemas/signing";
import { DelegatedNotice, DelegateSection, WaitingForTurn } from "./delegation";
import { DocumentText } from "@/components/contract-document";
import { sizeText } from "@/components/file-size";

// Only a contract whose document is an uploaded PDF loads its pages' code (and then pdf.js).
const SigningPdf = dynamic(() => import("./signing-pdf").then((m) => m.SigningPdf), {
  ssr: false,
  loading: () => <p className="mt-3 text-sm text-slate-600">Loading the PDF…</p>,
});

/** Too many wrong codes: the page says what to do next instead of the form. */
const TWO_STEP_LOCKED = ERROR_CODES.two_step_locked.code;
const DECISION_FIELDS = ["code", "full_name", "reason"] as const;
type TDecisionField = (typeof DECISION_FIELDS)[number];

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-800">
      {message}
    </p>
  );
}

const SIGN_STATE_WORDS: Record<string, string> = { undecided: "Not yet decided", signed: "Signed", declined: "Declined" };

type TLoad = { kind: "loading" } | { kind: "dead"; message: string } | { kind: "ready"; view: TSigningPageView };
type TDone = { kind: "signed" | "declined"; contractState: string } | { kind: "delegated"; delegateName: string } | null;

export function SigningPage({ token }: { token: string }) {
  const base = `/api/sign/${encodeURIComponent(token)}`;
  const [load, setLoad] = useState<TLoad>({ kind: "loading" });
  const [done, setDone] = useState<TDone>(null);

  const refresh = useCallback(async () => {
    try {
      setLoad({ kind: "ready", view: await fetchJson<TSigningPageView>(base) });
    } catch (error) {
      setLoad({ kind: "dead", message: error instanceof RequestError ? error.message : "Something went wrong." });
    }
  }, [base]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  if (done?.kind === "delegated") return <DelegatedNotice delegateName={done.delegateName} />;
  if (done) {
    return (
      <section aria-labelledby="done-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 id="done-heading" className="text-2xl font-semibold text-slate-900">
          {done.kind === "signed" ? "You have signed" : "You have declined"}
        </h1>
        <p className="mt-2 text-slate-700" role="status">
          {done.kind === "signed"
            ? done.contractState === "signed"
              ? "Everyone has signed: the contract is signed. A confirmation is on its way by e-mail."
              : "Thank you. The contract is signed once every signatory has signed."
            : "The contract will not be signed. Everyone involved is told by e-mail."}
        </p>
      </section>
    );
  }
  if (load.kind === "loading") return <p className="text-slate-600">Loading the contract…</p>;
  if (load.kind === "dead") {
    return (
      <section className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-semibold text-slate-900">This link does not work</h1>
        <p className="mt-2 text-slate-700">{load.message}</p>
      </section>
    );
  }
  const { view } = load;
  return (
    <div className="space-y-6">
      <header>
        <p className="text-sm text-slate-600">For {view.you.name}, {view.you.party_name}</p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{view.contract.name}</h1>
        {view.contract.signing_period_expiry_time && (
          <p className="text-sm text-slate-600">Open for signing until {new Date(view.contract.signing_period_expiry_time).toLocaleDateString()}.</p>
        )}
      </header>

      <section aria-labelledby="parties-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="parties-heading" className="text-lg font-semibold text-slate-900">Parties</h2>
        <ul className="mt-2 space-y-3">
          {view.parties.map((party, p) => (
            <li key={p}>
              <p className="font-medium text-slate-900">{party.name}</p>
              <ul className="ml-4 list-disc text-sm text-slate-700">
                {party.participants.map((person, i) => (
                  <li key={i}>
                    {person.name}
                    {person.title ? `, ${person.title}` : ""} — {person.signatory ? SIGN_STATE_WORDS[person.sign_state] : "Receives a copy"}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="document-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="document-heading" className="text-lg font-semibold text-slate-900">The contract</h2>
        {view.uploaded_pdf ? (
          <SigningPdf pdf={view.uploaded_pdf} />
        ) : (
          <article aria-label="Contract text" className="mt-3">
            <DocumentText sections={view.document.sections} />
          </article>
        )}
        {view.files.length > 0 && (
          <>
            <h3 className="mt-6 text-base font-semibold text-slate-900">Files</h3>
            <ul className="mt-2 space-y-1 text-sm">
              {view.files.map((file) => (
                <li key={file.id}>
                  <a className="break-all font-medium text-blue-700 underline" href={file.href}>
                    {file.type === "contract" ? "The contract as PDF" : file.name}
                  </a>
                  {file.size !== null ? <span className="text-slate-600"> ({sizeText(file.size)})</span> : null}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      <Decision base={base} view={view} onDone={setDone} />
    </div>
  );
}

function Decision({ base, view, onDone }: { base: string; view: TSigningPageView; onDone: (done: TDone) => void }) {
  const { you } = view;
  const [fullName, setFullName] = useState("");
  const [reason, setReason] = useState("");
  const [code, setCode] = useState("");
  const [codeNote, setCodeNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<TDecisionField, string>>>({});
  const [locked, setLocked] = useState(you.two_step_locked);
  const [busy, setBusy] = useState(false);
  const [declining, setDeclining] = useState(false);
  const needsCode = you.two_step_authentication_method === "email";

  if (!you.signatory) return <p className="text-slate-700">You receive this contract to read; there is nothing for you to sign.</p>;
  if (you.sign_state !== "undecided") return <p className="text-slate-700">You have {you.sign_state} this contract.</p>;
  const delegate = you.can_delegate && (
    <DelegateSection base={base} code={needsCode ? code : undefined} onDelegated={(delegateName) => onDone({ kind: "delegated", delegateName })} onLocked={() => setLocked(true)} />
  );
  if (!you.your_turn) {
    return (
      <>
        <WaitingForTurn />
        {delegate}
      </>
    );
  }
  if (needsCode && locked) {
    return (
      <section aria-labelledby="decide-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="decide-heading" className="text-lg font-semibold text-slate-900">This link is locked</h2>
        <p role="alert" className="mt-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          Too many wrong codes were typed, so this link can no longer be used to sign, decline or hand on. The contract&apos;s owner has been told. Ask the person who sent
          you the contract to send you a new invitation: it comes with a new link, and this one stops working.
        </p>
      </section>
    );
  }

  async function send(path: string, body: unknown): Promise<{ contract_state: string } | null> {
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      return await fetchJson<{ contract_state: string }>(`${base}/${path}`, { method: "POST", body: JSON.stringify(body) });
    } catch (e) {
      if (e instanceof RequestError && e.errorCode === TWO_STEP_LOCKED) {
        setLocked(true);
        return null;
      }
      // One message per problem, next to its field; the request's own sentence only when no field has one.
      const byField: Partial<Record<TDecisionField, string>> = {};
      if (e instanceof RequestError) {
        for (const field of DECISION_FIELDS) {
          const first = e.parameterProblems[field]?.[0];
          if (first) byField[field] = first;
        }
      }
      setFieldErrors(byField);
      if (Object.keys(byField).length === 0) setError(e instanceof Error ? e.message : "Something went wrong.");
      return null;
    } finally {
      setBusy(false);
    }
  }

  async function askCode() {
    const sent = await send("code", {});
    if (sent) setCodeNote(`We e-mailed a six-digit code to ${you.email}.`);
  }

  async function sign(event: FormEvent) {
    event.preventDefault();
    const answer = await send("sign", { full_name: fullName, ...(needsCode ? { code } : {}) });
    if (answer) onDone({ kind: "signed", contractState: answer.contract_state });
  }

  async function decline(event: FormEvent) {
    event.preventDefault();
    const answer = await send("decline", { reason, ...(needsCode ? { code } : {}) });
    if (answer) onDone({ kind: "declined", contractState: answer.contract_state });
  }

  return (
    <section aria-labelledby="decide-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="decide-heading" className="text-lg font-semibold text-slate-900">Your decision</h2>
      {!you.sign_method_supported && (
        <p className="mt-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          Your sign method ({you.sign_method.replaceAll("_", " ")}
          {you.two_step_authentication_method === "sms" ? ", with a code by SMS" : ""}) is not available here. Ask the contract's owner to change it;
          you can still decline.
        </p>
      )}
      {needsCode && (
        <div className="mt-3 space-y-2">
          <p className="text-sm text-slate-700">To sign, decline or hand it on, confirm it is you with a code sent to your e-mail.</p>
          <button type="button" onClick={askCode} disabled={busy} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-50">
            E-mail me a code
          </button>
          {codeNote && <p role="status" className="text-sm text-emerald-800">{codeNote}</p>}
          <label className="block text-sm font-medium text-slate-800">
            Code from the e-mail
            <input
              value={code}
              onChange={(e) => setCode(e.target.value)}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              aria-invalid={fieldErrors.code ? true : undefined}
              aria-describedby={fieldErrors.code ? "code-error" : undefined}
              className="mt-1 block w-40 rounded-md border border-slate-300 px-3 py-2"
            />
          </label>
          <FieldError id="code-error" message={fieldErrors.code} />
        </div>
      )}
      {error && <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-800">{error}</p>}
      {!declining ? (
        <>
          {you.sign_method_supported && (
            <form onSubmit={sign} className="mt-4 space-y-2">
              <label className="block text-sm font-medium text-slate-800">
                Type your full name to sign
                <input
                  value={fullName}
                  onChange={(e) => setFullName(e.target.value)}
                  autoComplete="name"
                  placeholder={you.name}
                  aria-invalid={fieldErrors.full_name ? true : undefined}
                  aria-describedby={fieldErrors.full_name ? "full-name-error" : undefined}
                  className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
                />
              </label>
              <FieldError id="full-name-error" message={fieldErrors.full_name} />
              <p className="text-xs text-slate-600">By signing you agree to the contract above, as {you.name}.</p>
              <button type="submit" disabled={busy} className="rounded-md bg-emerald-700 px-4 py-2 text-sm font-semibold text-white hover:bg-emerald-800 disabled:opacity-50">
                Sign
              </button>
            </form>
          )}
          <button type="button" onClick={() => setDeclining(true)} className="mt-4 text-sm font-medium text-red-800 underline">
            Decline instead
          </button>
        </>
      ) : (
        <form onSubmit={decline} className="mt-4 space-y-2">
          <label className="block text-sm font-medium text-slate-800">
            Why do you decline? (optional)
            <textarea
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={2000}
              rows={3}
              aria-invalid={fieldErrors.reason ? true : undefined}
              aria-describedby={fieldErrors.reason ? "reason-error" : undefined}
              className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
            />
          </label>
          <FieldError id="reason-error" message={fieldErrors.reason} />
          <div className="flex gap-3">
            <button type="submit" disabled={busy} className="rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-50">
              Decline
            </button>
            <button type="button" onClick={() => setDeclining(false)} className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800">
              Back
            </button>
          </div>
        </form>
      )}
      {delegate}
    </section>
  );
}
