"use client";

// The reminder settings of a workspace (its defaults) or of a contract (its own, or the workspace's
// where left empty), docs/mail.md "Reminders". The server checks the ranges; its one message per
// field stands next to that field, and what was typed stays.

import { useEffect, useId, useState, type FormEvent } from "react";
import { fieldProblem } from "@/components/problems";
import { RequestError } from "@/lib/client/fetch-json";

const FIELDS = [
  { key: "first_reminder_days", label: "First reminder, days after the invitation" },
  { key: "reminder_interval_days", label: "Then every, days" },
  { key: "max_reminders", label: "Reminders at most (0: none)" },
  { key: "expiry_warning_days", label: "Warning, days before the signing period ends (0: none)" },
] as const;

export type TReminderKey = (typeof FIELDS)[number]["key"];
export type TReminderValues = Record<TReminderKey, number | null>;

type TProps = {
  /** The stored values; null: the default applies (contracts only). */
  values: TReminderValues;
  /** The workspace's defaults, shown for a contract's empty fields; absent for the workspace's own form. */
  defaults?: Record<TReminderKey, number>;
  editable: boolean;
  save: (changes: Partial<TReminderValues>) => Promise<unknown>;
};

export function ReminderSettingsForm({ values, defaults, editable, save }: TProps) {
  const id = useId();
  const text = (v: number | null) => (v === null ? "" : String(v));
  const [draft, setDraft] = useState<Record<TReminderKey, string>>(() => Object.fromEntries(FIELDS.map((f) => [f.key, text(values[f.key])])) as Record<TReminderKey, string>);
  const [problems, setProblems] = useState<Partial<Record<TReminderKey, string>>>({});
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // After a refusal, focus goes to the first field to mend (the Save button keeps it otherwise).
  useEffect(() => {
    const first = FIELDS.find(({ key }) => problems[key]);
    if (first) document.getElementById(`${id}-${first.key}`)?.focus();
  }, [problems, id]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setNote(null);
    setProblems({});
    // An empty field: the workspace's default (a contract), else left as it is. A number the server
    // refuses is sent as typed, so its message names the real problem.
    const changes: Partial<Record<TReminderKey, number | null | string>> = {};
    for (const { key } of FIELDS) {
      const typed = draft[key].trim();
      if (typed === "") {
        if (defaults) changes[key] = null;
      } else changes[key] = /^-?\d+(\.\d+)?$/.test(typed) ? Number(typed) : typed;
    }
    try {
      await save(changes as Partial<TReminderValues>);
      setNote("Saved.");
    } catch (error) {
      const byField: Partial<Record<TReminderKey, string>> = {};
      if (error instanceof RequestError) for (const { key } of FIELDS) byField[key] = fieldProblem(error.parameterProblems[key]);
      setProblems(byField);
      if (!Object.values(byField).some(Boolean)) setNote(error instanceof Error ? error.message : "The settings could not be saved.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Reminder settings" className="space-y-3 text-sm">
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map(({ key, label }) => (
          <div key={key}>
            <label htmlFor={`${id}-${key}`} className="block font-medium text-slate-800">
              {label}
            </label>
            <input
              id={`${id}-${key}`}
              inputMode="numeric"
              value={draft[key]}
              disabled={!editable}
              placeholder={defaults ? `${defaults[key]} (workspace default)` : undefined}
              onChange={(e) => setDraft({ ...draft, [key]: e.currentTarget.value })}
              aria-invalid={problems[key] ? true : undefined}
              aria-describedby={problems[key] ? `${id}-${key}-problem` : undefined}
              className="mt-1 block w-48 rounded-md border border-slate-300 bg-white px-2 py-1.5 disabled:bg-slate-100"
            />
            {problems[key] ? (
              <p id={`${id}-${key}-problem`} className="mt-1 text-red-800">
                {problems[key]}
              </p>
            ) : null}
          </div>
        ))}
      </div>
      {editable ? (
        <button type="submit" aria-disabled={busy || undefined} className="rounded-md bg-blue-700 px-3 py-1.5 font-semibold text-white hover:bg-blue-800 aria-disabled:opacity-50">
          Save reminder settings
        </button>
      ) : null}
      <p role="status" className="text-slate-700">
        {note}
      </p>
    </form>
  );
}
