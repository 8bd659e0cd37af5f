"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { dayWords } from "@/components/calendar-date";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { errorClass, inputClass, labelClass } from "@/components/participant-fields";
import { asSentence, labelledProblem } from "@/components/problems";
import { RelativeTime } from "@/components/relative-time";
import { TermFields } from "@/components/term-fields/term-fields";
import { serverTermProblems, shownFor, termFormOf, termRequestOf, termRows, type TTermFormValues, type TTermSetting } from "@/components/term-fields/term-values";
import { RequestError } from "@/lib/client/fetch-json";
import type { TContract } from "@/lib/schemas/contract";
import { useGiveNotice, useTerminate, useUpdateTerm } from "./term-queries";

// The contract's term (docs/web-app.md "Term"): editable while a draft, the agreed values once
// published, and once signed its lifecycle with Give notice and Terminate for those who may change it.

const buttonClass = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50";

export function TermSection({ contract, mayWrite }: { contract: TContract; mayWrite: boolean }) {
  const editable = contract.state === "draft" && mayWrite;
  return (
    <section aria-labelledby="term-title" className="mt-8">
      <h2 id="term-title" className="text-lg font-semibold text-slate-900">
        Term
      </h2>
      {contract.state === "signed" && contract.lifecycle_state.state !== null ? <LifecycleStatus contract={contract} mayWrite={mayWrite} /> : null}
      {editable ? (
        <TermEditor contract={contract} />
      ) : (
        <div className="mt-3 rounded-lg border border-slate-200 bg-white p-4">
          <h3 className="text-base font-semibold text-slate-900">{contract.state === "draft" ? "Settings" : "Agreed term"}</h3>
          <p className="mt-1 text-sm text-slate-600">
            {contract.state === "draft"
              ? "Those who may change the contract set these while it is a draft."
              : "Part of what the signatories agree to: it cannot change once published."}
          </p>
          <TermList settings={contract.lifecycle_settings} />
        </div>
      )}
    </section>
  );
}

function TermList({ settings }: { settings: TContract["lifecycle_settings"] }) {
  return (
    <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]">
      {termRows(settings).map((row) => (
        <Fact key={row.term} term={row.term}>
          {row.value}
        </Fact>
      ))}
    </dl>
  );
}

/** A draft's settings: checked with the shared rules before the PUT; the server's problems land on the same fields. */
function TermEditor({ contract }: { contract: TContract }) {
  const [form, setForm] = useState<TTermFormValues>(() => termFormOf(contract.lifecycle_settings));
  const [problems, setProblems] = useState<Partial<Record<TTermSetting, string>>>({});
  const [checked, setChecked] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const update = useUpdateTerm(contract.id);

  const refusal =
    update.error instanceof RequestError
      ? Object.keys(serverTermProblems(update.error.parameterProblems)).length > 0
        ? null
        : asSentence(update.error.message)
      : update.isError
        ? "The term could not be saved."
        : null;

  function change(next: TTermFormValues) {
    setForm(next);
    setStatus(null);
    // Once a save was tried, the problems follow what is typed.
    if (checked) setProblems(termRequestOf(next).problems);
  }

  function save() {
    const { settings, problems: found } = termRequestOf(form);
    setChecked(true);
    setProblems(found);
    setStatus(null);
    if (Object.keys(found).length > 0) return;
    update.mutate(settings, {
      onSuccess: () => setStatus("Term saved."),
      onError: (error) => {
        if (error instanceof RequestError) setProblems(serverTermProblems(error.parameterProblems));
      },
    });
  }

  return (
    <form
      aria-labelledby="term-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
      className="mt-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <p className="mb-3 text-sm text-slate-600">
        When the contract starts, how long it lasts and how it renews. The signatories agree to this; it cannot change once published.
      </p>
      <TermFields value={form} onChange={change} problems={problems} disabled={update.isPending} />
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button type="submit" disabled={update.isPending} className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60">
          {update.isPending ? "Saving…" : "Save term"}
        </button>
        <p role="status" className="text-sm text-green-800">
          {status}
        </p>
      </div>
      {refusal ? (
        <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {refusal}
        </p>
      ) : null}
    </form>
  );
}

const STATE_WORDS: Record<string, string> = { awaiting: "Awaiting its start", active: "Active", ended: "Ended" };

function stateWords(life: TContract["lifecycle_state"]): string {
  const base = STATE_WORDS[life.state ?? ""] ?? "Not started";
  if (life.sub_state === "canceled") return `${base}: notice given`;
  if (life.sub_state === "terminated") return `${base}: terminated`;
  return base;
}

/** The signed contract's lifecycle as the API answers it, and the actions on it. */
function LifecycleStatus({ contract, mayWrite }: { contract: TContract; mayWrite: boolean }) {
  const life = contract.lifecycle_state;
  const [done, setDone] = useState<string | null>(null);
  // Held here, not in the buttons: a button goes once its action succeeds, and its mutation's callbacks with it.
  const notice = useGiveNotice(contract.id);
  const terminate = useTerminate(contract.id);
  const { recurring } = shownFor(contract.lifecycle_settings.duration);
  const ended = life.state === "ended";
  const ending = life.end_date !== null;
  return (
    <div className="mt-3 rounded-lg border border-slate-200 bg-white p-4" role="group" aria-labelledby="lifecycle-title">
      <h3 id="lifecycle-title" className="text-base font-semibold text-slate-900">
        Lifecycle
      </h3>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]">
        <Fact term="State">{stateWords(life)}</Fact>
        {life.signed_date ? <Fact term="Signed on">{dayWords(life.signed_date)}</Fact> : null}
        {life.period_start_date ? (
          <Fact term={life.state === "awaiting" ? "First period" : ended ? "Last period" : "Current period"}>
            {life.period_end_date ? `${dayWords(life.period_start_date)} to ${dayWords(life.period_end_date)}` : `From ${dayWords(life.period_start_date)}, with no end`}
          </Fact>
        ) : null}
        <Fact term={ended ? "Ended on" : "Ends on"}>
          {life.end_date ? dayWords(life.end_date) : (recurring ? "Not set: it renews at the end of each period unless notice is given" : "Not set: it runs until terminated")}
        </Fact>
        {life.notice_deadline ? <Fact term="Notice deadline">{`${dayWords(life.notice_deadline)} (the last day to give notice for it to end at a period's end)`}</Fact> : null}
        {recurring ? (
          <Fact term="Renewals">
            {life.renewals}
            {life.renewed_time ? (
              <>
                {" "}
                (last <RelativeTime iso={life.renewed_time} />)
              </>
            ) : null}
          </Fact>
        ) : null}
      </dl>
      {mayWrite && !ended ? (
        <div className="mt-4 flex flex-wrap gap-3">
          {recurring && !ending ? <GiveNotice contract={contract} notice={notice} onDone={setDone} /> : null}
          <Terminate contract={contract} terminate={terminate} onDone={setDone} />
        </div>
      ) : null}
      <p role="status" className="mt-3 text-sm text-green-800">
        {done}
      </p>
    </div>
  );
}

type TDone = (message: string) => void;

function GiveNotice({ contract, notice, onDone }: { contract: TContract; notice: ReturnType<typeof useGiveNotice>; onDone: TDone }) {
  const life = contract.lifecycle_state;
  // The 409's detail is the one sentence saying when it can end instead: shown as it is.
  const refusal = notice.error instanceof RequestError ? notice.error.message : notice.isError ? "Notice could not be given." : null;
  return (
    <ConfirmDialog
      buttonText="Give notice"
      buttonClassName={buttonClass}
      title="Give notice?"
      description={
        life.period_end_date
          ? `“${contract.name}” will end at the end of its current period, on ${dayWords(life.period_end_date)}, if notice is still in time${life.notice_deadline ? ` (the deadline is ${dayWords(life.notice_deadline)})` : ""}. If it is not, nothing changes and you are told the earliest date it can end.`
          : `“${contract.name}” will end at the end of its current period, if notice is still in time.`
      }
      confirmLabel="Give notice"
      busyLabel="Giving notice…"
      busy={notice.isPending}
      error={refusal}
      onOpen={() => notice.reset()}
      onConfirm={(close) =>
        notice.mutate(undefined, {
          onSuccess: (canceled) => {
            close();
            onDone(`Notice given: the contract ends on ${canceled.lifecycle_state.end_date ? dayWords(canceled.lifecycle_state.end_date) : "the end of its current period"}.`);
          },
        })
      }
    />
  );
}

function Terminate({ contract, terminate, onDone }: { contract: TContract; terminate: ReturnType<typeof useTerminate>; onDone: TDone }) {
  const [when, setWhen] = useState<"now" | "date">("now");
  const [date, setDate] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const dateInput = useRef<HTMLInputElement>(null);
  const dateProblem = terminate.error instanceof RequestError ? terminate.error.parameterProblems.date?.[0] : undefined;
  // The date refused: its field, now described by the problem, is where to mend it.
  useEffect(() => {
    if (dateProblem) dateInput.current?.focus();
  }, [dateProblem, terminate.error]);
  const shownProblem = problem ?? (dateProblem ? labelledProblem("The date", dateProblem) : null);
  const refusal = dateProblem ? null : terminate.error instanceof RequestError ? terminate.error.message : terminate.isError ? "The contract could not be terminated." : null;

  function confirm(close: () => void) {
    if (when === "date" && date === "") {
      setProblem("Enter the last day it is in force, or choose to end it now.");
      dateInput.current?.focus();
      return;
    }
    setProblem(null);
    terminate.mutate(when === "date" ? { date } : {}, {
      onSuccess: (terminated) => {
        close();
        onDone(
          terminated.lifecycle_state.state === "ended"
            ? "The contract was terminated: it has ended."
            : `The contract was terminated: it ends on ${dayWords(terminated.lifecycle_state.end_date ?? date)}.`,
        );
      },
    });
  }

  return (
    <ConfirmDialog
      buttonText="Terminate"
      buttonClassName="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50"
      title="Terminate this contract?"
      description={`“${contract.name}” ends early, now or at the end of a day you choose. This cannot be undone.`}
      confirmLabel="Terminate"
      busyLabel="Terminating…"
      busy={terminate.isPending}
      error={refusal}
      onOpen={() => {
        terminate.reset();
        setProblem(null);
      }}
      onConfirm={confirm}
    >
      <fieldset className="mt-4 text-sm">
        <legend className={labelClass}>When it ends</legend>
        <div className="mt-1 flex flex-col gap-1">
          <label className="flex items-center gap-2">
            <input type="radio" name={`${id}-when`} checked={when === "now"} onChange={() => setWhen("now")} />
            Now
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name={`${id}-when`} checked={when === "date"} onChange={() => setWhen("date")} />
            At the end of a date
          </label>
        </div>
      </fieldset>
      {when === "date" ? (
        <div className="mt-3 text-sm">
          <label htmlFor={`${id}-date`} className={labelClass}>
            Last day in force
          </label>
          <input
            ref={dateInput}
            id={`${id}-date`}
            type="date"
            value={date}
            onChange={(event) => {
              setDate(event.target.value);
              setProblem(null);
              terminate.reset();
            }}
            aria-invalid={shownProblem ? true : undefined}
            aria-describedby={shownProblem ? `${id}-date-error` : undefined}
            className={`mt-1 ${inputClass(Boolean(shownProblem))}`}
          />
          {shownProblem ? (
            <p id={`${id}-date-error`} className={errorClass}>
              {shownProblem}
            </p>
          ) : null}
        </div>
      ) : null}
    </ConfirmDialog>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-600">{term}</dt>
      <dd className="text-slate-900">{children}</dd>
    </>
  );
}
