"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { ATTRIBUTE_LABELS, optionLabel, type TOptionField } from "@/components/participant-fields";
import { RelativeTime } from "@/components/relative-time";
import { dayWords } from "@/components/calendar-date";
import { DURATION_LABELS, periodWords } from "@/components/term-fields/term-values";
import { EmptyState, ErrorState, LoadingState } from "@/components/states";
import type { TAuditActor, TAuditChange, TAuditEvent } from "@/lib/schemas/audit-event";
import type { TContract } from "@/lib/schemas/contract";
import type { TDataField } from "@/lib/schemas/data-field";
import { ChainStatus } from "./chain-status";
import { allDataFieldsQuery, eventsQuery } from "./contract-queries";

// The contract's audit trail as a timeline: who, when, what, and each field from → to.

const VERBS: Record<string, string> = {
  create: "created",
  update: "changed",
  delete: "deleted",
  publish: "published",
  sign: "signed",
  decline: "declined",
  send: "sent",
  email: "e-mailed",
  remind: "reminded",
};

const ENTITIES: Record<string, string> = {
  contract: "the contract",
  party: "party",
  participant: "participant",
  data_field: "data field",
};

const FIELD_LABELS: Record<string, string> = {
  ...ATTRIBUTE_LABELS,
  state: "State",
  workspace_id: "Workspace",
  template_id: "Template",
  country_code: "Country",
  value: "Value",
  data_field_count: "Data fields",
  decline_reason: "Reason",
  two_step_locked: "Locked by wrong codes",
  two_step_wrong_tries: "Wrong codes",
  delegate_name: "Signs instead",
  delegate_email: "Their e-mail",
  reason: "Reason",
  stage: "Stage",
  participant_ids: "Invited",
  // The term and the lifecycle (docs/web-app.md "Term").
  duration: "Duration",
  start_date: "Start date",
  end_date: "End date",
  initial_duration: "Initial duration",
  renewal_period: "Renewal period",
  notice_period: "Notice period",
  sub_state: "Notice or termination",
  notice_deadline: "Notice deadline",
  period_start_date: "Period starts",
  period_end_date: "Period ends",
  signed_date: "Signed on",
  renewals: "Renewals",
  renewed_time: "Renewed",
  date: "Date",
  note: "Note",
  recipient_id: "Recipient (user id)",
  reminder_id: "Reminder",
  days_before: "Days before",
  to_user_id: "To (user id)",
  at: "At",
};

const PERIOD_FIELDS = new Set<string>(["initial_duration", "renewal_period", "notice_period"]);
/** Calendar days (`YYYY-MM-DD`), shown in words as everywhere else on the page. */
const DAY_FIELDS = new Set<string>(["start_date", "end_date", "notice_deadline", "period_start_date", "period_end_date", "signed_date", "date"]);
/** The term's and lifecycle's fields come dotted (`lifecycle_settings.notice_period`): named as the setting. */
const bareField = (field: string) => field.replace(/^lifecycle_(settings|state)\./, "");

const OPTION_FIELDS = new Set<string>(["delivery_channel", "sign_method", "two_step_authentication_method"]);

/** The names of the contract's parties, participants and data fields by id, to say whom or what an event is about. */
function namesOf(contract: TContract, dataFields: readonly TDataField[]): Map<string, string> {
  const names = new Map<string, string>(dataFields.map((field) => [`data_field:${field.id}`, field.name]));
  for (const party of contract.parties) {
    names.set(`party:${party.id}`, party.name);
    for (const person of party.type === "company" ? party.participants : [party.participant]) names.set(`participant:${person.id}`, person.name);
  }
  return names;
}

/** Actions whose words are not "<verb> <entity>". */
const PHRASES: Record<string, string> = {
  "participant.sign": "signed the contract",
  "participant.decline": "declined to sign the contract",
  "contract.sign": "completed the contract: every signatory has signed",
  "contract.decline": "ended the contract: a signatory declined",
  "contract.overdue": "marked the contract overdue: its signing period ended",
  "contract.seal": "sealed the signed copy and e-mailed it to every participant",
  "participant.two_step_lock": "typed too many wrong codes: their signing link is locked until they are sent a new invitation",
  "contract.withdraw": "withdrew the contract: its signing links no longer work",
  "contract.lifecycle_settings_update": "changed the contract's term",
  "contract.activate": "started the contract: its start date came",
  "contract.renew": "renewed the contract for another period",
  "contract.cancel": "gave notice: the contract ends at the end of its current period",
  "contract.terminate": "terminated the contract",
  "contract.end": "ended the contract",
  "contract.internal_reminder_create": "set an internal reminder",
  "contract.internal_reminder_delete": "removed an internal reminder",
  "contract.internal_reminder_send": "e-mailed an internal reminder",
  "contract.notice_warning_send": "e-mailed the owner that a notice deadline is near",
  "contract.end_warning_send": "e-mailed the owner that the contract ends soon",
  "contract.document_upload": "uploaded a PDF as the contract's document",
  "contract.document_remove": "removed the uploaded PDF: the template's text is the document again",
  "placement.create": "placed a box on the PDF",
  "placement.update": "moved or changed a box on the PDF",
  "placement.delete": "removed a box from the PDF",
};

/** "changed participant Ann", "created the contract"; the raw action for one this page does not know. */
export function describeAction(event: Pick<TAuditEvent, "action" | "entity_type" | "entity_id"> & { changes?: TAuditChange[] }, names: ReadonlyMap<string, string> = new Map()): string {
  const phrase = PHRASES[event.action];
  if (phrase) return phrase;
  const [entity = "", verb = ""] = event.action.split(".");
  if (event.action === "contract.stage_start") {
    const stage = event.changes?.find((change) => change.field === "stage")?.to;
    return `opened signing stage ${typeof stage === "number" ? stage : ""}: its signatories were invited`.replace("  ", " ");
  }
  if (event.action === "participant.delegate") {
    const named = (field: string) => event.changes?.find((change) => change.field === field)?.to;
    const [name, email] = [named("delegate_name"), named("delegate_email")];
    return `handed their signature on to ${typeof name === "string" ? name : "someone else"}${typeof email === "string" ? ` (${email})` : ""}`;
  }
  if (event.action === "participant.invitation_send") {
    return `sent participant ${names.get(`participant:${event.entity_id}`) ?? `#${event.entity_id}`} an invitation to sign, with a new link`;
  }
  const verbWords = VERBS[verb];
  const entityWords = ENTITIES[entity];
  if (!verbWords || !entityWords) return event.action.replaceAll("_", " ");
  if (entity === "contract") return `${verbWords} ${entityWords}`;
  const name = names.get(`${event.entity_type}:${event.entity_id}`);
  return `${verbWords} ${entityWords} ${name ?? `#${event.entity_id}`}`;
}

function actorWords(actor: TAuditActor, via: TAuditEvent["via"]): { who: string; how: string | null } {
  if (actor.type === "system") return { who: "The system", how: null };
  if (actor.type === "api_token") return { who: `API token “${actor.name}”`, how: null };
  if (actor.type === "signer") return { who: actor.name, how: "through their signing link" };
  const how = actor.api_token ? `through API token “${actor.api_token.name}”` : via === "session" ? "in the web app" : null;
  return { who: actor.name, how };
}

/** A value as a person reads it: empty text, yes/no, an option's label. */
export function formatValue(field: string, value: unknown): string {
  if (value === null || value === undefined) return "not set";
  if (value === "") return "empty";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "string" && bareField(field) === "duration" && value in DURATION_LABELS) return DURATION_LABELS[value as keyof typeof DURATION_LABELS];
  if (typeof value === "string" && PERIOD_FIELDS.has(bareField(field))) return periodWords(value) ?? value;
  if (typeof value === "string" && DAY_FIELDS.has(bareField(field)) && /^\d{4}-\d{2}-\d{2}$/.test(value)) return dayWords(value);
  if (typeof value === "string") return OPTION_FIELDS.has(field) ? optionLabel(field as TOptionField, value) : value;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? "" : "s"}`;
  return JSON.stringify(value);
}

const fieldLabel = (field: string) => FIELD_LABELS[field] ?? FIELD_LABELS[bareField(field)] ?? field.replaceAll("_", " ");

function Change({ change }: { change: TAuditChange }) {
  const added = change.from === null;
  return (
    // Values are text (a decline reason keeps its line breaks), never markup.
    <li className="whitespace-pre-line">
      <span className="font-medium text-slate-800">{fieldLabel(change.field)}</span>
      {": "}
      {added ? null : (
        <>
          <del className="text-slate-600">{formatValue(change.field, change.from)}</del>
          <span aria-hidden="true"> → </span>
          <span className="sr-only"> to </span>
        </>
      )}
      <ins className="font-medium text-slate-900 no-underline">{formatValue(change.field, change.to)}</ins>
    </li>
  );
}

function EventItem({ event, names }: { event: TAuditEvent; names: ReadonlyMap<string, string> }) {
  const { who, how } = actorWords(event.actor, event.via);
  return (
    <li className="relative border-l-2 border-slate-200 pb-5 pl-5 last:pb-0">
      <span aria-hidden="true" className="absolute -left-[7px] top-1.5 h-3 w-3 rounded-full border-2 border-white bg-blue-700" />
      <p className="text-sm text-slate-900">
        {/* Isolated (`<bdi>`): a right-to-left name would otherwise carry the time after it along. */}
        <span className="font-semibold">
          <bdi>{who}</bdi>
        </span>{" "}
        <bdi>{describeAction(event, names)}</bdi>{" "}
        <span className="text-slate-600">
          · <RelativeTime iso={event.created_time} />
          {how ? ` · ${how}` : null}
        </span>
      </p>
      {event.changes.length > 0 && !event.action.endsWith(".create") && !event.action.endsWith(".delete") ? (
        <ul className="mt-1 space-y-0.5 text-sm text-slate-700">
          {event.changes.map((change) => (
            <Change key={change.field} change={change} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/**
 * The Activity section: the newest 20 events, more on request. It refreshes whenever the page
 * changes something (the mutations invalidate its query).
 */
export function ActivitySection({ contract }: { contract: TContract }) {
  const query = useInfiniteQuery(eventsQuery(contract.id));
  // Every data field, not a page of them: an event may be about any one of the contract's fields.
  const dataFields = useQuery(allDataFieldsQuery(contract.id));
  const names = namesOf(contract, dataFields.data?.data ?? []);
  const events = query.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <section aria-labelledby="activity-title" className="mt-10 wrap-anywhere">
      <h2 id="activity-title" className="text-lg font-semibold text-slate-900">
        Activity
      </h2>
      <ChainStatus contractId={contract.id} />
      <div className="mt-3">
        {query.isPending ? (
          <LoadingState label="Loading the activity…" />
        ) : query.isError ? (
          <ErrorState title="Could not load the activity." error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
        ) : events.length === 0 ? (
          <EmptyState title="No activity recorded yet" />
        ) : (
          <>
            <ol aria-label="Activity, newest first" className="ml-1.5">
              {events.map((event) => (
                <EventItem key={event.id} event={event} names={names} />
              ))}
            </ol>
            {query.hasNextPage ? (
              <button
                type="button"
                onClick={() => void query.fetchNextPage()}
                disabled={query.isFetchingNextPage}
                className="mt-4 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-60"
              >
                {query.isFetchingNextPage ? "Loading…" : "Show older activity"}
              </button>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}
