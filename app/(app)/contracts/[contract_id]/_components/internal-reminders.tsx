"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { errorClass, hintClass, inputClass, labelClass } from "@/components/participant-fields";
import { asSentence, labelledProblem } from "@/components/problems";
import { RelativeTime } from "@/components/relative-time";
import { RequestError } from "@/lib/client/fetch-json";
import { ZCreateContractReminderRequestSchema, type TContractReminder, type TCreateContractReminderRequest } from "@/lib/schemas/lifecycle";
import { allUsersQuery, internalRemindersQuery, useAddReminder, useDeleteReminder } from "./term-queries";

// Internal reminders (docs/web-app.md "Term"): notes staff set for themselves or a colleague, e-mailed
// on their date. Editors add them and remove unsent ones; everyone who sees the contract sees them.

type TField = "date" | "note" | "recipient_id";
const FIELD_LABELS: Record<TField, string> = { date: "Date", note: "Note", recipient_id: "Who gets it" };

export function InternalReminders({ contractId, editable }: { contractId: number; editable: boolean }) {
  const reminders = useQuery(internalRemindersQuery(contractId));
  return (
    <section aria-labelledby="internal-reminders-title" className="mt-8">
      <h2 id="internal-reminders-title" className="text-lg font-semibold text-slate-900">
        Internal reminders
      </h2>
      <p className="mt-1 text-sm text-slate-600">E-mailed to the one who gets it on the date, at 08:00 in the workspace&apos;s time zone. Only staff see them.</p>
      <div className="mt-3">
        {reminders.isPending ? (
          <p className="text-sm text-slate-600">Loading…</p>
        ) : reminders.isError ? (
          <p role="alert" className="text-sm text-red-800">
            The reminders could not be loaded: {reminders.error.message}
          </p>
        ) : reminders.data.data.length === 0 ? (
          <p className="text-sm text-slate-600">No reminders set.</p>
        ) : (
          <ul aria-label="Internal reminders" className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {reminders.data.data.map((reminder) => (
              <ReminderItem key={reminder.id} contractId={contractId} reminder={reminder} editable={editable} />
            ))}
          </ul>
        )}
      </div>
      {editable ? <AddReminder contractId={contractId} /> : null}
    </section>
  );
}

function ReminderItem({ contractId, reminder, editable }: { contractId: number; reminder: TContractReminder; editable: boolean }) {
  const remove = useDeleteReminder(contractId);
  const refusal = remove.error instanceof RequestError ? asSentence(remove.error.message) : remove.isError ? "The reminder could not be removed." : null;
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 px-4 py-3 text-sm">
      <div>
        <p className="font-medium text-slate-900">
          {reminder.date} · to {reminder.recipient.name}
        </p>
        <p className="whitespace-pre-line text-slate-800">{reminder.note}</p>
        <p className="text-slate-600">
          {reminder.sent_time ? (
            <>
              Sent <RelativeTime iso={reminder.sent_time} />
            </>
          ) : (
            "Not sent yet"
          )}
        </p>
      </div>
      {editable && reminder.sent_time === null ? (
        <ConfirmDialog
          buttonText="Remove"
          buttonLabel={`Remove the reminder of ${reminder.date} to ${reminder.recipient.name}`}
          buttonClassName="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
          title="Remove this reminder?"
          description={`The reminder of ${reminder.date} to ${reminder.recipient.name} will not be sent.`}
          confirmLabel="Remove reminder"
          busyLabel="Removing…"
          busy={remove.isPending}
          error={refusal}
          onOpen={() => remove.reset()}
          onConfirm={(close) => remove.mutate(reminder.id, { onSuccess: close })}
        />
      ) : null}
    </li>
  );
}

/** The add form: checked with the request's schema before sending; the server's problems on the same fields. */
function AddReminder({ contractId }: { contractId: number }) {
  const id = useId();
  const users = useQuery(allUsersQuery());
  const add = useAddReminder(contractId);
  const [values, setValues] = useState({ date: "", note: "", recipient_id: "" });
  const [problems, setProblems] = useState<Partial<Record<TField, string>>>({});
  const [status, setStatus] = useState<string | null>(null);
  const refusal =
    add.error instanceof RequestError && Object.keys(add.error.parameterProblems).every((path) => !(path in FIELD_LABELS))
      ? asSentence(add.error.message)
      : add.isError && !(add.error instanceof RequestError)
        ? "The reminder could not be added."
        : null;

  const set = (field: TField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setProblems((current) => ({ ...current, [field]: undefined }));
    setStatus(null);
  };

  function submit() {
    const request = { date: values.date, note: values.note, ...(values.recipient_id ? { recipient_id: Number(values.recipient_id) } : {}) };
    const parsed = ZCreateContractReminderRequestSchema.safeParse(request);
    if (!parsed.success) {
      const found: Partial<Record<TField, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as TField;
        if (field in FIELD_LABELS && !found[field]) found[field] = field === "date" && values.date === "" ? "Enter the date it is sent." : labelledProblem(FIELD_LABELS[field], issue.message);
      }
      setProblems(found);
      return;
    }
    setProblems({});
    add.mutate(parsed.data as TCreateContractReminderRequest, {
      onSuccess: (reminder) => {
        setValues({ date: "", note: "", recipient_id: values.recipient_id });
        setStatus(`Reminder set for ${reminder.date}, to ${reminder.recipient.name}.`);
      },
      onError: (error) => {
        if (!(error instanceof RequestError)) return;
        const found: Partial<Record<TField, string>> = {};
        for (const [path, messages] of Object.entries(error.parameterProblems)) {
          if (path in FIELD_LABELS && messages[0]) found[path as TField] = labelledProblem(FIELD_LABELS[path as TField], messages[0]);
        }
        setProblems(found);
      },
    });
  }

  const aria = (field: TField, hint?: boolean) => ({
    "aria-invalid": problems[field] ? (true as const) : undefined,
    "aria-describedby": [problems[field] ? `${id}-${field}-error` : null, hint ? `${id}-${field}-hint` : null].filter(Boolean).join(" ") || undefined,
  });
  const problem = (field: TField) =>
    problems[field] ? (
      <p id={`${id}-${field}-error`} className={errorClass}>
        {problems[field]}
      </p>
    ) : null;

  return (
    <form
      aria-label="Add an internal reminder"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      className="mt-4 grid max-w-2xl gap-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h3 className="text-base font-semibold text-slate-900">Add a reminder</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-date`} className={labelClass}>
            Date
          </label>
          <input id={`${id}-date`} type="date" value={values.date} onChange={(e) => set("date", e.target.value)} className={`mt-1 ${inputClass(Boolean(problems.date))}`} {...aria("date")} />
          {problem("date")}
        </div>
        <div>
          <label htmlFor={`${id}-recipient_id`} className={labelClass}>
            Who gets it
          </label>
          <select
            id={`${id}-recipient_id`}
            value={values.recipient_id}
            onChange={(e) => set("recipient_id", e.target.value)}
            className={`mt-1 ${inputClass(Boolean(problems.recipient_id))}`}
            {...aria("recipient_id", true)}
          >
            <option value="">Me</option>
            {(users.data ?? [])
              .filter((user) => user.active)
              .map((user) => (
                <option key={user.id} value={user.id}>
                  {user.name} ({user.email})
                </option>
              ))}
          </select>
          {problem("recipient_id")}
          <p id={`${id}-recipient_id-hint`} className={hintClass}>
            Someone who can see this contract.
          </p>
        </div>
      </div>
      <div>
        <label htmlFor={`${id}-note`} className={labelClass}>
          Note
        </label>
        <textarea id={`${id}-note`} rows={2} value={values.note} onChange={(e) => set("note", e.target.value)} className={`mt-1 ${inputClass(Boolean(problems.note))}`} {...aria("note")} />
        {problem("note")}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={add.isPending} className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60">
          {add.isPending ? "Adding…" : "Add reminder"}
        </button>
        <p role="status" className="text-sm text-green-800">
          {status}
        </p>
      </div>
      {refusal ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {refusal}
        </p>
      ) : null}
    </form>
  );
}
