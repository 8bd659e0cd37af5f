"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { fetchJson, RequestError } from "@/lib/client/fetch-json";
import { pathOf, type TResponseOf } from "@/lib/client/v1";
import { describedByIds, FieldMessages } from "@/components/field-messages";
import { inputClass } from "@/components/participant-fields";
import { asSentence, fieldProblem } from "@/components/problems";
import { WEBHOOK_DESCRIPTION_MAX_LENGTH } from "@/lib/schemas/limits";

type TWebhook = TResponseOf<"getWebhook">;
type TCreated = TResponseOf<"createWebhook">;
type TDelivery = TResponseOf<"retryWebhookDelivery">;

const webhooksKey = ["v1", "webhooks"] as const;
const deliveriesKey = (id: number) => ["v1", "webhooks", id, "deliveries"] as const;

const listWebhooks = () => fetchJson<TResponseOf<"listWebhooks">>(`${pathOf("listWebhooks", {})}?limit=100`).then((r) => r.data);
const listDeliveries = (id: number) => fetchJson<TResponseOf<"listWebhookDeliveries">>(`${pathOf("listWebhookDeliveries", { webhook_id: id })}?limit=20`);

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const when = (iso: string | null) => (iso ? <time dateTime={iso}>{dateFormat.format(new Date(iso))}</time> : <span className="text-slate-500">—</span>);
const cell = "px-3 py-2 text-left align-top";
const button = "rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-60";

export function WebhooksManager() {
  // The secret lives only here, in memory, until the admin dismisses it.
  const [created, setCreated] = useState<TCreated | null>(null);
  return (
    <div className="mt-6">
      <CreateWebhookForm onCreated={setCreated} />
      {created ? <NewSecretPanel key={created.id} created={created} onDone={() => setCreated(null)} /> : null}
      <WebhooksList />
    </div>
  );
}

function CreateWebhookForm({ onCreated }: { onCreated: (created: TCreated) => void }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const create = useMutation({
    mutationFn: () => fetchJson<TCreated>(pathOf("createWebhook", {}), { method: "POST", body: JSON.stringify({ callback_url: url, ...(description.trim() ? { description } : {}) }) }),
    onSuccess: (result) => {
      setUrl("");
      setDescription("");
      onCreated(result);
      return queryClient.invalidateQueries({ queryKey: webhooksKey });
    },
  });
  // Each field's problem next to it, as a sentence; anything else under the form.
  const problems = create.error instanceof RequestError ? create.error.parameterProblems : {};
  const urlProblem = fieldProblem(problems.callback_url);
  const descriptionProblem = fieldProblem(problems.description);
  const formProblem = create.error && !urlProblem && !descriptionProblem ? asSentence(create.error.message) : undefined;
  const urlRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLInputElement>(null);
  // The button is disabled while the request runs, so focus goes to the field to mend.
  useEffect(() => {
    if (urlProblem) urlRef.current?.focus();
    else if (descriptionProblem) descriptionRef.current?.focus();
  }, [create.error, urlProblem, descriptionProblem]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} noValidate className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="text-base font-semibold text-slate-900">Add a webhook</h2>
      <div className="mt-3 flex flex-wrap items-start gap-3">
        <div className="min-w-72 flex-1">
          <label htmlFor="webhook-url" className="block text-sm font-medium text-slate-800">
            Callback URL
          </label>
          <input
            id="webhook-url"
            ref={urlRef}
            type="url"
            autoComplete="off"
            placeholder="https://example.com/hooks/contracts"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            aria-invalid={urlProblem ? true : undefined}
            aria-describedby={describedByIds("webhook-url", urlProblem)}
            className={`mt-1 ${inputClass(urlProblem !== undefined)}`}
          />
          <FieldMessages id="webhook-url" error={urlProblem} />
        </div>
        <div className="min-w-56">
          <label htmlFor="webhook-description" className="block text-sm font-medium text-slate-800">
            Description <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input
            id="webhook-description"
            ref={descriptionRef}
            type="text"
            maxLength={WEBHOOK_DESCRIPTION_MAX_LENGTH}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            aria-invalid={descriptionProblem ? true : undefined}
            aria-describedby={describedByIds("webhook-description", descriptionProblem)}
            className={`mt-1 ${inputClass(descriptionProblem !== undefined)}`}
          />
          <FieldMessages id="webhook-description" error={descriptionProblem} />
        </div>
        <button type="submit" disabled={create.isPending} className="mt-6 rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60">
          {create.isPending ? "Adding…" : "Add webhook"}
        </button>
      </div>
      {formProblem ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {formProblem}
        </p>
      ) : null}
      <p className="mt-2 text-xs text-slate-500">Every event type from every workspace; the API (POST /v1/webhooks) can narrow both.</p>
    </form>
  );
}

function NewSecretPanel({ created, onDone }: { created: TCreated; onDone: () => void }) {
  const panelRef = useRef<HTMLElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState("");
  useEffect(() => panelRef.current?.focus(), []);
  async function copy() {
    try {
      await navigator.clipboard.writeText(created.secret);
      setStatus("Secret copied.");
    } catch {
      inputRef.current?.select();
      setStatus("Copying is not available here: the secret is selected, copy it with your keyboard.");
    }
  }
  return (
    <section ref={panelRef} tabIndex={-1} aria-labelledby="new-secret-title" className="mt-6 rounded-lg border border-emerald-300 bg-emerald-50 p-4">
      <h2 id="new-secret-title" className="text-base font-semibold text-emerald-900">
        Webhook added: copy its signing secret now
      </h2>
      <p className="mt-1 text-sm text-emerald-900">It will not be shown again. The receiver verifies each delivery&apos;s webhook-signature with it.</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <label htmlFor="new-secret-value" className="sr-only">
          Signing secret
        </label>
        <input id="new-secret-value" ref={inputRef} readOnly value={created.secret} onFocus={(e) => e.currentTarget.select()} className="min-w-0 flex-1 rounded-md border border-emerald-300 bg-white px-3 py-2 font-mono text-sm" />
        <button type="button" onClick={copy} className="rounded-md border border-emerald-400 bg-white px-3 py-2 text-sm font-medium text-emerald-900 hover:bg-emerald-100">
          Copy secret
        </button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-emerald-900">
        {status}
      </p>
      <button type="button" onClick={onDone} className="mt-2 rounded-md bg-emerald-700 px-4 py-2 text-sm font-semibold text-white hover:bg-emerald-800">
        I have copied it
      </button>
    </section>
  );
}

function WebhooksList() {
  const hooks = useQuery({ queryKey: webhooksKey, queryFn: listWebhooks, refetchInterval: 5_000 });
  const [deleting, setDeleting] = useState<TWebhook | null>(null);
  return (
    <section aria-labelledby="webhooks-title" className="mt-8">
      <h2 id="webhooks-title" className="text-base font-semibold text-slate-900">
        Subscriptions
      </h2>
      {hooks.isPending ? (
        <p className="mt-3 text-sm text-slate-600">Loading…</p>
      ) : hooks.isError ? (
        <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          Could not load the webhooks: {hooks.error.message}
        </p>
      ) : hooks.data.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No webhooks yet. Add one above.</p>
      ) : (
        <ul className="mt-3 space-y-4">
          {hooks.data.map((hook) => (
            <WebhookItem key={hook.id} hook={hook} onDelete={() => setDeleting(hook)} />
          ))}
        </ul>
      )}
      {deleting ? <DeleteDialog hook={deleting} onClose={() => setDeleting(null)} /> : null}
    </section>
  );
}

function WebhookItem({ hook, onDelete }: { hook: TWebhook; onDelete: () => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const toggle = useMutation({
    mutationFn: () => fetchJson<TWebhook>(pathOf("updateWebhook", { webhook_id: hook.id }), { method: "PUT", body: JSON.stringify({ active: !hook.active }) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
  const label = hook.description || hook.callback_url;
  return (
    <li aria-label={`Webhook ${label}`} className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-all font-mono text-sm text-slate-900">{hook.callback_url}</p>
          {hook.description ? <p className="text-sm text-slate-600">{hook.description}</p> : null}
          <p className="mt-1 text-xs text-slate-500">
            {hook.events.length === 0 ? "All events" : hook.events.join(", ")} · {hook.workspace_ids.length === 0 ? "all workspaces" : `workspaces ${hook.workspace_ids.join(", ")}`}
          </p>
        </div>
        <div className="text-right">
          {hook.active ? (
            <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800">Active</span>
          ) : (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">Paused</span>
          )}
          {hook.active && hook.failing_since_time ? <p className="mt-1 text-xs text-red-700">Failing since {when(hook.failing_since_time)}</p> : null}
        </div>
      </div>
      {!hook.active && hook.paused_reason ? <p className="mt-2 text-sm text-amber-900">{hook.paused_reason}</p> : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className={button} disabled={toggle.isPending} onClick={() => toggle.mutate()}>
          {hook.active ? "Pause" : "Resume"}
          <span className="sr-only"> {label}</span>
        </button>
        <button type="button" className={button} aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? "Hide deliveries" : "Show deliveries"}
          <span className="sr-only"> of {label}</span>
        </button>
        <button type="button" className="rounded-md border border-red-300 px-2.5 py-1 text-xs font-medium text-red-700 hover:bg-red-50" onClick={onDelete}>
          Delete<span className="sr-only"> {label}</span>
        </button>
      </div>
      {toggle.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {toggle.error.message}
        </p>
      ) : null}
      {open ? <Deliveries hook={hook} /> : null}
    </li>
  );
}

function Deliveries({ hook }: { hook: TWebhook }) {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: deliveriesKey(hook.id), queryFn: () => listDeliveries(hook.id), refetchInterval: 2_000 });
  const retry = useMutation({
    mutationFn: (delivery: TDelivery) => fetchJson<TDelivery>(pathOf("retryWebhookDelivery", { webhook_id: hook.id, delivery_id: delivery.id }), { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(hook.id) }),
  });
  if (list.isPending) return <p className="mt-3 text-sm text-slate-600">Loading deliveries…</p>;
  if (list.isError) return <p role="alert" className="mt-3 text-sm text-red-700">Could not load the deliveries: {list.error.message}</p>;
  if (list.data.data.length === 0) return <p className="mt-3 text-sm text-slate-600">No deliveries yet.</p>;
  return (
    <div className="mt-3 overflow-x-auto">
      {retry.isError ? (
        <p role="alert" className="mb-2 text-sm text-red-700">
          {retry.error.message}
        </p>
      ) : null}
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label={`Deliveries of ${hook.description || hook.callback_url}`}>
        <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className={cell}>Event</th>
            <th scope="col" className={cell}>Status</th>
            <th scope="col" className={cell}>Code</th>
            <th scope="col" className={cell}>Duration</th>
            <th scope="col" className={cell}>Attempts</th>
            <th scope="col" className={cell}>Last attempt</th>
            <th scope="col" className={cell}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {list.data.data.map((d) => (
            <tr key={d.id}>
              <th scope="row" className={`${cell} font-medium`}>
                <span className="font-mono text-xs">{d.event_type}</span>
                <span className="block font-mono text-xs text-slate-500">{d.event_id}</span>
              </th>
              <td className={cell}>
                {d.status}
                {d.last_error ? <span className="block text-xs text-red-700">{d.last_error}</span> : null}
                {d.status === "queued" && d.attempts > 0 ? <span className="block text-xs text-slate-500">next {when(d.next_attempt_time)}</span> : null}
              </td>
              <td className={cell}>{d.last_status_code ?? "—"}</td>
              <td className={cell}>{d.last_duration_ms === null ? "—" : `${d.last_duration_ms} ms`}</td>
              <td className={cell}>{d.attempts}</td>
              <td className={cell}>{when(d.last_attempt_time)}</td>
              <td className={`${cell} text-right`}>
                <button type="button" className={button} disabled={d.status === "sending" || retry.isPending} onClick={() => retry.mutate(d)}>
                  Send again<span className="sr-only"> {d.event_id}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DeleteDialog({ hook, onClose }: { hook: TWebhook; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const queryClient = useQueryClient();
  const remove = useMutation({
    // A 204 has no body: fetchJson answers null for it.
    mutationFn: () => fetchJson<null>(pathOf("deleteWebhook", { webhook_id: hook.id }), { method: "DELETE" }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhooksKey });
      ref.current?.close();
    },
  });
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal();
  }, []);
  const label = hook.description || hook.callback_url;
  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="delete-webhook-title" className="m-auto w-full max-w-md rounded-lg p-6 shadow-xl backdrop:bg-slate-900/40">
      <h2 id="delete-webhook-title" className="text-lg font-semibold text-slate-900">
        Delete the webhook “{label}”?
      </h2>
      <p className="mt-2 text-sm text-slate-600">Nothing more is sent to it, queued deliveries included, and its delivery history is removed.</p>
      {remove.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {remove.error.message}
        </p>
      ) : null}
      <div className="mt-6 flex justify-end gap-3">
        <button type="button" autoFocus onClick={() => ref.current?.close()} className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
          Cancel
        </button>
        <button type="button" onClick={() => remove.mutate()} disabled={remove.isPending} className="rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60">
          {remove.isPending ? "Deleting…" : "Delete webhook"}
        </button>
      </div>
    </dialog>
  );
}
