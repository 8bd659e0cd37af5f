// A contract's term (its duration settings, lib/domain/lifecycle.ts) as the wizard and the contract
// page edit it: periods as a number and a unit, a start "when signed" or on a date, the first
// period ending on a date or after a duration. Converted to the API's settings (ISO 8601 periods,
// every setting given, null where the duration does not allow it) and checked, field by field,
// with the shared rules: the request's zod schema, then termProblems. The API answers the same
// problems (400, `parameter_problems` naming the setting); both are shown in these words.

import { dayWords } from "@/components/calendar-date";
import { labelledProblem } from "@/components/problems";
import { describePeriod, MAX_PERIOD_COUNT, parsePeriod, type TPeriodUnit } from "@/lib/domain/calendar";
import { DURATION_TYPES, termProblems, type TDurationType, type TTerm } from "@/lib/domain/lifecycle";
import { ZLifecycleSettingsRequestSchema } from "@/lib/schemas/lifecycle";

export type TPeriodInput = { count: string; unit: TPeriodUnit };

export type TTermFormValues = {
  duration: TDurationType;
  starts: "on_signing" | "on_date";
  /** `YYYY-MM-DD`, or "" while not given. */
  start_date: string;
  /** How the first (single or initial) period ends. */
  first_period_ends: "on_date" | "after_duration";
  end_date: string;
  initial_duration: TPeriodInput;
  renewal_period: TPeriodInput;
  notice_period: TPeriodInput;
};

/** The settings by their API names. */
export type TTermSetting = keyof TTerm;
export const TERM_SETTINGS = ["duration", "start_date", "end_date", "initial_duration", "renewal_period", "notice_period"] as const satisfies readonly TTermSetting[];

export const DURATION_LABELS: Readonly<Record<TDurationType, string>> = {
  none: "No end: runs until terminated",
  single_period: "Single period: ends by itself",
  recurring: "Recurring: renews until notice is given",
  recurring_with_initial: "Recurring after an initial period",
};

export const DURATION_HINTS: Readonly<Record<TDurationType, string>> = {
  none: "It starts and runs on until someone terminates it.",
  single_period: "It ends on its end date, or after its duration; no notice is needed.",
  recurring: "Each period renews by itself unless notice is given by the deadline.",
  recurring_with_initial: "A first period of its own length, then renewals unless notice is given by the deadline.",
};

export const UNIT_LABELS: Readonly<Record<TPeriodUnit, string>> = { D: "days", W: "weeks", M: "months", Y: "years" };
export const PERIOD_UNITS = ["D", "W", "M", "Y"] as const satisfies readonly TPeriodUnit[];

/** The settings' labels, as the forms and messages name them. */
export const TERM_LABELS: Readonly<Record<TTermSetting, string>> = {
  duration: "Duration",
  start_date: "Start date",
  end_date: "End date",
  initial_duration: "Initial duration",
  renewal_period: "Renewal period",
  notice_period: "Notice period",
};

/** What each duration lets the form offer (termProblems refuses anything else). */
export function shownFor(duration: TDurationType): { firstPeriod: boolean; recurring: boolean } {
  return {
    firstPeriod: duration === "single_period" || duration === "recurring_with_initial",
    recurring: duration === "recurring" || duration === "recurring_with_initial",
  };
}

const periodInput = (iso: string | null | undefined, fallbackUnit: TPeriodUnit): TPeriodInput => {
  const period = iso ? parsePeriod(iso) : null;
  return period ? { count: String(period.count), unit: period.unit } : { count: "", unit: fallbackUnit };
};

/** The form's values for stored settings: a contract's, or a template's defaults (which have no dates). */
export function termFormOf(settings: Partial<Record<TTermSetting, string | null>> | undefined): TTermFormValues {
  const duration = (DURATION_TYPES as readonly string[]).includes(settings?.duration ?? "") ? (settings!.duration as TDurationType) : "none";
  return {
    duration,
    starts: settings?.start_date ? "on_date" : "on_signing",
    start_date: settings?.start_date ?? "",
    first_period_ends: settings?.initial_duration && !settings?.end_date ? "after_duration" : "on_date",
    end_date: settings?.end_date ?? "",
    initial_duration: periodInput(settings?.initial_duration, "Y"),
    renewal_period: periodInput(settings?.renewal_period, "Y"),
    notice_period: periodInput(settings?.notice_period, "M"),
  };
}

export const EMPTY_TERM_FORM: TTermFormValues = termFormOf(undefined);

/** Setting names in an API message made words: "must not be before start_date" → "… the start date". */
function plainSettings(message: string): string {
  return message.replace(/\b(start_date|end_date|initial_duration|renewal_period|notice_period)\b/g, (name) => `the ${TERM_LABELS[name as TTermSetting].toLowerCase()}`);
}

/** One problem with a setting as the sentence shown next to its field: "End date must not be before the start date." */
export function termProblemSentence(setting: TTermSetting, message: string): string {
  return labelledProblem(TERM_LABELS[setting], plainSettings(message));
}

/** The setting a `parameter_problems` path is about (`lifecycle_settings.end_date` on creation, `end_date` on the PUT); null for another. */
export function settingOfPath(path: string): TTermSetting | null {
  const name = path.startsWith("lifecycle_settings.") ? path.slice("lifecycle_settings.".length) : path;
  return (TERM_SETTINGS as readonly string[]).includes(name) ? (name as TTermSetting) : null;
}

/** The API's problems with the settings, one sentence per setting; the rest are left to the caller. */
export function serverTermProblems(problems: Readonly<Record<string, readonly string[]>>): Partial<Record<TTermSetting, string>> {
  const out: Partial<Record<TTermSetting, string>> = {};
  for (const [path, messages] of Object.entries(problems)) {
    const setting = settingOfPath(path);
    const first = messages.find((message) => message.trim() !== "");
    if (setting && first && !out[setting]) out[setting] = termProblemSentence(setting, first);
  }
  return out;
}

export type TTermRequest = Record<TTermSetting, string | null> & { duration: TDurationType };

/** A number and unit as ISO 8601 (`6`, `M` → `P6M`), or the sentence saying what is wrong with it; null when empty. */
function periodOf(setting: TTermSetting, input: TPeriodInput, required: boolean): { iso: string | null } | { problem: string } {
  const count = input.count.trim();
  if (count === "") return required ? { problem: `Enter the ${TERM_LABELS[setting].toLowerCase()}: a number and a unit.` } : { iso: null };
  if (!/^\d+$/.test(count) || Number(count) < 1) return { problem: `${TERM_LABELS[setting]} must be a whole number of ${UNIT_LABELS[input.unit]}, at least 1.` };
  if (Number(count) > MAX_PERIOD_COUNT[input.unit]) return { problem: `${TERM_LABELS[setting]} can be at most ${MAX_PERIOD_COUNT[input.unit].toLocaleString("en")} ${UNIT_LABELS[input.unit]}.` };
  return { iso: `P${Number(count)}${input.unit}` };
}

/**
 * The settings the form stands for (every setting named, null where the duration does not allow it
 * or none is given) and the problems with them, one sentence per setting, checked as the API will.
 */
export function termRequestOf(form: TTermFormValues): { settings: TTermRequest; problems: Partial<Record<TTermSetting, string>> } {
  const problems: Partial<Record<TTermSetting, string>> = {};
  const { firstPeriod, recurring } = shownFor(form.duration);
  const settings: TTermRequest = { duration: form.duration, start_date: null, end_date: null, initial_duration: null, renewal_period: null, notice_period: null };

  if (form.starts === "on_date") {
    if (form.start_date.trim() === "") problems.start_date = "Enter the start date, or choose that it starts when signed.";
    else settings.start_date = form.start_date.trim();
  }
  if (firstPeriod && form.first_period_ends === "on_date") {
    if (form.end_date.trim() === "") problems.end_date = "Enter the end date, or choose that it ends after a duration.";
    else settings.end_date = form.end_date.trim();
  }
  const periods: ["initial_duration" | "renewal_period" | "notice_period", TPeriodInput, boolean, boolean][] = [
    ["initial_duration", form.initial_duration, firstPeriod && form.first_period_ends === "after_duration", true],
    ["renewal_period", form.renewal_period, recurring, true],
    ["notice_period", form.notice_period, recurring, false],
  ];
  for (const [setting, input, shown, required] of periods) {
    if (!shown) continue;
    const result = periodOf(setting, input, required);
    if ("problem" in result) problems[setting] = result.problem;
    else settings[setting] = result.iso;
  }

  // The request's own schema (formats), then the duration's rules: each problem on its setting.
  const parsed = ZLifecycleSettingsRequestSchema.safeParse(settings);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const setting = settingOfPath(String(issue.path[0] ?? ""));
      if (setting && !problems[setting]) problems[setting] = termProblemSentence(setting, issue.message);
    }
  }
  if (Object.keys(problems).length === 0) {
    for (const problem of termProblems(settings)) {
      if (!problems[problem.path]) problems[problem.path] = termProblemSentence(problem.path, problem.message);
    }
  }
  return { settings, problems };
}

/** A period in words ("6 months"); the ISO text itself if it cannot be read. */
export function periodWords(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const period = parsePeriod(iso);
  return period ? describePeriod(period) : iso;
}

/** The settings as rows to read: only those the duration has. */
export function termRows(settings: Partial<Record<TTermSetting, string | null>>): { term: string; value: string }[] {
  const duration = ((DURATION_TYPES as readonly string[]).includes(settings.duration ?? "") ? settings.duration : "none") as TDurationType;
  const { firstPeriod, recurring } = shownFor(duration);
  const rows = [
    { term: "Duration", value: DURATION_LABELS[duration] },
    { term: "Starts", value: settings.start_date ? `On ${dayWords(settings.start_date)}` : "When the contract is signed" },
  ];
  if (firstPeriod) {
    const label = duration === "single_period" ? "Ends" : "Initial period ends";
    rows.push({ term: label, value: settings.end_date ? `On ${dayWords(settings.end_date)} (its last day)` : settings.initial_duration ? `After ${periodWords(settings.initial_duration)}` : "Not set" });
  }
  if (recurring) {
    rows.push({ term: "Renews every", value: periodWords(settings.renewal_period) ?? "Not set" });
    rows.push({ term: "Notice period", value: periodWords(settings.notice_period) ?? "None: notice may be given up to a period's last day" });
  }
  return rows;
}
