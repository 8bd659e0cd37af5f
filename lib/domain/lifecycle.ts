// A contract's life after signing (docs/lifecycle.md): its term (the duration settings the
// signatories agree to), the rules those settings keep to, and the lifecycle state at any instant,
// a pure function of the term, the day it was signed, a notice or termination staff gave, and the
// time. The lifecycle job (lib/services/lifecycle) stores what this computes at each instant it
// names; nothing else decides a contract's state after signing.
import { addDaysTo, addPeriod, addPeriods, dateAt, describePeriod, parsePeriod, periodDays, startOf, subtractPeriod, type TPeriod } from "./calendar";

export const DURATION_TYPES = ["none", "single_period", "recurring", "recurring_with_initial"] as const;
export type TDurationType = (typeof DURATION_TYPES)[number];

export const LIFECYCLE_STATES = ["awaiting", "active", "ended"] as const;
export type TLifecycleState = (typeof LIFECYCLE_STATES)[number];
export const LIFECYCLE_SUB_STATES = ["canceled", "terminated"] as const;
export type TLifecycleSubState = (typeof LIFECYCLE_SUB_STATES)[number];

/** The duration settings, by their API names: dates `YYYY-MM-DD`, periods ISO 8601 (`P1Y`). */
export interface TTerm {
  duration: TDurationType;
  /** Null: the day the contract is signed. */
  start_date: string | null;
  /** The last day of a single period, or of the initial period of `recurring_with_initial`. */
  end_date: string | null;
  /** Instead of `end_date`: how long that period lasts. */
  initial_duration: string | null;
  /** How long each renewed period lasts (the recurring kinds). */
  renewal_period: string | null;
  /** How long before a period's end notice must be given for the contract to end then (the recurring kinds). */
  notice_period: string | null;
}

export const NO_TERM: TTerm = { duration: "none", start_date: null, end_date: null, initial_duration: null, renewal_period: null, notice_period: null };

type TSetting = Exclude<keyof TTerm, "duration">;

/** Which settings each duration allows, and which it requires (`end_date` or `initial_duration`: one of them). */
const ALLOWED: Readonly<Record<TDurationType, readonly TSetting[]>> = {
  none: ["start_date"],
  single_period: ["start_date", "end_date", "initial_duration"],
  recurring: ["start_date", "renewal_period", "notice_period"],
  recurring_with_initial: ["start_date", "end_date", "initial_duration", "renewal_period", "notice_period"],
};

const DURATION_WORDS: Readonly<Record<TDurationType, string>> = {
  none: "a contract with no duration",
  single_period: "a single-period contract",
  recurring: "a recurring contract",
  recurring_with_initial: "a recurring contract with an initial period",
};

export interface TTermProblem {
  path: TSetting;
  message: string;
}

/**
 * The settings a duration does not allow, the ones it lacks, a notice period as long as a period
 * it applies to or longer, and an end before the start: each names its field. Formats (a real
 * date, a one-unit period) are the schema's.
 */
export function termProblems(term: TTerm): TTermProblem[] {
  const problems: TTermProblem[] = [];
  const allowed = ALLOWED[term.duration];
  for (const setting of ["start_date", "end_date", "initial_duration", "renewal_period", "notice_period"] as const) {
    if (term[setting] !== null && !allowed.includes(setting)) problems.push({ path: setting, message: `is not allowed for ${DURATION_WORDS[term.duration]}` });
  }
  if (problems.length > 0) return problems;
  const hasInitialPeriod = term.duration === "single_period" || term.duration === "recurring_with_initial";
  if (hasInitialPeriod && term.end_date === null && term.initial_duration === null) {
    problems.push({ path: "end_date", message: `is required for ${DURATION_WORDS[term.duration]}, unless initial_duration is given` });
  }
  if (hasInitialPeriod && term.end_date !== null && term.initial_duration !== null) {
    problems.push({ path: "initial_duration", message: "cannot be given with end_date: give one of them" });
  }
  const recurring = term.duration === "recurring" || term.duration === "recurring_with_initial";
  if (recurring && term.renewal_period === null) problems.push({ path: "renewal_period", message: `is required for ${DURATION_WORDS[term.duration]}` });
  if (term.start_date !== null && term.end_date !== null && term.end_date < term.start_date) {
    problems.push({ path: "end_date", message: "must not be before start_date" });
  }
  const notice = term.notice_period === null ? null : parsePeriod(term.notice_period);
  if (notice) {
    const periods: [string, { min: number }][] = [];
    const renewal = term.renewal_period === null ? null : parsePeriod(term.renewal_period);
    if (renewal) periods.push([`the renewal period (${describePeriod(renewal)})`, periodDays(renewal)]);
    const initial = term.initial_duration === null ? null : parsePeriod(term.initial_duration);
    if (initial) periods.push([`the initial duration (${describePeriod(initial)})`, periodDays(initial)]);
    if (term.start_date !== null && term.end_date !== null) {
      const days = Math.round((Date.parse(term.end_date) - Date.parse(term.start_date)) / 86_400_000) + 1;
      periods.push([`the initial period (${describePeriod({ count: days, unit: "D" })})`, { min: days }]);
    }
    const tooLong = periods.find(([, days]) => periodDays(notice).max >= days.min);
    if (tooLong) problems.push({ path: "notice_period", message: `must be shorter than ${tooLong[0]}` });
  }
  return problems;
}

/** What a contract's lifecycle is computed from. */
export interface TLifeFacts {
  term: TTerm;
  /** The workspace's IANA time zone: a date begins at its midnight there. */
  timeZone: string;
  /** The day the last signature completed the contract, in `timeZone`. */
  signedOn: string;
  /**
   * When staff made it end: the last day it is in force (notice, or termination on a date: it ends at
   * that day's midnight in the zone in force then, so a zone changed later moves neither the day nor
   * a renewal past it), or the instant it ended (termination now); both null when they did not.
   */
  endOn: string | null;
  endAt: Date | null;
  endKind: "canceled" | "terminated" | null;
  /**
   * The instant the lifecycle as last stored was reached, in `timeZone` (`reachedAtOf`; null: none
   * stored). The lifecycle never goes back before it: a time zone moved west would otherwise take
   * back a start, a renewal or an end already written, and write it again at the new midnight.
   */
  reachedAt: Date | null;
  /**
   * The notice deadline as last stored (null: none). The next deadline is never one before it: a
   * time zone moved west would otherwise reopen, for the hours between the two midnights, a
   * deadline already passed (notice refused a minute before accepted, its warning sent again).
   */
  noticeDeadlineReached: string | null;
}

/**
 * The instant a stored lifecycle was reached in `timeZone`: the midnight its period began (active),
 * or the one after its last day (ended); null while awaiting or before it was stored.
 */
export function reachedAtOf(stored: { state: TLifecycleState | null; periodStartDate: string | null; endDate: string | null }, timeZone: string): Date | null {
  if (stored.state === "active" && stored.periodStartDate !== null) return startOf(stored.periodStartDate, timeZone);
  if (stored.state === "ended" && stored.endDate !== null) return startOf(addDaysTo(stored.endDate, 1), timeZone);
  return null;
}

export interface TLifecycle {
  state: TLifecycleState;
  subState: TLifecycleSubState | null;
  /** The day it starts (or started). */
  startDate: string;
  /** The period it is in (the first while awaiting; the last once ended). */
  periodStartDate: string;
  /** Its last day; null when the period has no end (no duration). */
  periodEndDate: string | null;
  /** The last day it ends on as things stand (null: it does not end by itself, or renews). */
  endDate: string | null;
  /** The last day notice may be given for it to end at the end of a period; the next one still ahead. Null when notice does not apply. */
  noticeDeadline: string | null;
  /** The period that deadline ends (its last day). */
  noticePeriodEndDate: string | null;
  /** Periods begun since the first (renewals). */
  renewals: number;
  /** The next instant the state or period changes; null when none will. */
  nextChangeAt: Date | null;
}

/** The periods of a term: where period `k` begins (0: the start), or null past the last. */
function boundaries(term: TTerm, start: string): (k: number) => string | null {
  const renewal = term.renewal_period === null ? null : parsePeriod(term.renewal_period);
  const initial = term.initial_duration === null ? null : parsePeriod(term.initial_duration);
  // An end date the start has passed (it starts on signing, and was signed after it) leaves a first
  // period of the start's day: periods never begin before the start (termProblems refuses an end
  // before a start_date given).
  const dayAfterEnd = term.end_date === null ? null : addDaysTo(term.end_date, 1);
  const initialEnd = dayAfterEnd !== null ? (dayAfterEnd > start ? dayAfterEnd : addDaysTo(start, 1)) : initial ? addPeriod(start, initial) : null;
  switch (term.duration) {
    case "none":
      return (k) => (k === 0 ? start : null);
    case "single_period":
      return (k) => (k === 0 ? start : k === 1 ? initialEnd : null);
    case "recurring":
      return (k) => addPeriod(start, renewal as TPeriod, k);
    case "recurring_with_initial":
      // Counted from the start, as `recurring` is: an initial duration and the renewals added at
      // once (addPeriods), so a month's end clamped once is not carried into every later period.
      if (dayAfterEnd === null && initial) return (k) => (k === 0 ? start : addPeriods(start, [initial, 1], [renewal as TPeriod, k - 1]));
      return (k) => (k === 0 ? start : addPeriod(initialEnd as string, renewal as TPeriod, k - 1));
  }
}

/** At most this many periods are looked through for the next notice deadline (its rules make it one of the next two). */
const MAX_PERIODS = 40_000;

/**
 * The period `day` is in: the last `k` whose boundary is on or before it (0 while awaiting).
 * Boundaries rise with `k` (null past the last), so it is found by doubling then halving: a few
 * dozen dates however many periods have passed (a daily renewal from 1900 has passed 46,000 and
 * more; walking them one by one took seconds on every request and job turn).
 */
function periodIndex(boundary: (k: number) => string | null, day: string): number {
  const within = (k: number) => {
    const b = boundary(k);
    return b !== null && b <= day;
  };
  if (!within(1)) return 0;
  let low = 1;
  let high = 2;
  while (within(high)) {
    low = high;
    high *= 2;
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (within(middle)) low = middle;
    else high = middle;
  }
  return low;
}

/** The lifecycle of a signed contract at `now`, or at `facts.reachedAt` if that is later (it never goes back). */
export function lifecycleAt(facts: TLifeFacts, asked: Date): TLifecycle {
  const { term, timeZone } = facts;
  const now = facts.reachedAt !== null && facts.reachedAt.getTime() > asked.getTime() ? facts.reachedAt : asked;
  const start = term.start_date ?? facts.signedOn;
  const boundary = boundaries(term, start);
  const today = dateAt(now, timeZone);
  const recurring = term.duration === "recurring" || term.duration === "recurring_with_initial";
  // The instant it ends: staff's, or the end of a single period, whichever comes first.
  const natural = term.duration === "single_period" ? startOf(boundary(1)!, timeZone) : null;
  const staffEnd = staffEndOf(facts);
  const endAt = [staffEnd, natural].filter((x): x is Date => x !== null).sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
  const ended = endAt !== null && now.getTime() >= endAt.getTime();
  const endedByStaff = endAt !== null && staffEnd !== null && endAt.getTime() === staffEnd.getTime();

  // The period `today` is in (the first while awaiting, the last once ended).
  const day = ended ? dateAt(new Date(endAt.getTime() - 1), timeZone) : today;
  const k = periodIndex(boundary, day);
  const next = boundary(k + 1);
  const periodEnd = next === null ? null : addDaysTo(next, -1);
  const endDate = endAt === null ? null : dateAt(new Date(endAt.getTime() - 1), timeZone);

  let notice: { deadline: string; periodEnd: string } | null = null;
  if (recurring && !ended && staffEnd === null) {
    const held = facts.noticeDeadlineReached;
    notice = nextNoticeDeadline(term, boundary, k, held !== null && held > today ? held : today);
  }

  const state: TLifecycleState = ended ? "ended" : today < start ? "awaiting" : "active";
  const subState = ended ? (endedByStaff && facts.endKind === "terminated" ? "terminated" : null) : facts.endKind === "canceled" ? "canceled" : null;
  // What happens next: it starts, it ends, or (recurring) the next period begins.
  const changes = [
    state === "awaiting" ? startOf(start, timeZone) : null,
    !ended ? endAt : null,
    !ended && recurring && next !== null ? startOf(next, timeZone) : null,
  ].filter((x): x is Date => x !== null && x.getTime() > now.getTime());
  const nextChangeAt = changes.sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
  return {
    state,
    subState,
    startDate: start,
    // Ended before it started ("now", while awaiting): the period is that last day, never one ending before it begins.
    periodStartDate: endDate !== null && endDate < boundary(k)! ? endDate : boundary(k)!,
    periodEndDate: endDate !== null && (periodEnd === null || endDate < periodEnd) ? endDate : periodEnd,
    endDate,
    noticeDeadline: notice?.deadline ?? null,
    noticePeriodEndDate: notice?.periodEnd ?? null,
    renewals: recurring ? k : 0,
    nextChangeAt,
  };
}

/** The first deadline from period `k` on that is not before `from`, and the period it ends. */
function nextNoticeDeadline(term: TTerm, boundary: (k: number) => string | null, k: number, from: string) {
  const notice = term.notice_period === null ? null : parsePeriod(term.notice_period);
  for (let j = k; j < k + MAX_PERIODS; j++) {
    const end = boundary(j + 1);
    if (end === null) return null;
    // Notice given by the deadline ends the contract at the end of period j.
    const deadline = addDaysTo(notice ? subtractPeriod(end, notice) : end, -1);
    if (deadline >= from) return { deadline, periodEnd: addDaysTo(end, -1) };
  }
  return null;
}

/** Staff's end (`TLifeFacts.endOn`, `endAt`) as the instant it takes effect, in the zone now in force. */
function staffEndOf(facts: TLifeFacts): Date | null {
  return facts.endOn !== null ? startOf(addDaysTo(facts.endOn, 1), facts.timeZone) : facts.endAt;
}

/** Staff's end as stored: a last day, or (termination now) an instant. */
export type TStaffEnd = { endOn: string; endAt: null } | { endOn: null; endAt: Date };

/** Why notice cannot be given now, in one sentence; else the end it gives (its period's last day). */
export function noticeRefusal(facts: TLifeFacts, now: Date): { refusal: string } | (TStaffEnd & { endDate: string }) {
  const life = lifecycleAt(facts, now);
  if (life.state === "ended") return { refusal: `The contract ended on ${life.endDate}.` };
  if (staffEndOf(facts) !== null) return { refusal: `The contract already ends on ${life.endDate}.` };
  if (facts.term.duration === "none") return { refusal: "The contract has no duration to give notice for; terminate it instead." };
  if (facts.term.duration === "single_period") return { refusal: `The contract ends by itself on ${life.endDate}; terminate it to end it sooner.` };
  const current = life.periodEndDate;
  if (life.noticeDeadline === null || life.noticePeriodEndDate === null) return { refusal: "The contract has no period end to give notice for." };
  if (life.noticePeriodEndDate !== current) {
    return {
      refusal: `Notice to end on ${current} was due by ${noticeDeadlineOf(facts.term, current!)}; the earliest the contract can now end is ${life.noticePeriodEndDate}.`,
    };
  }
  return { endOn: current!, endAt: null, endDate: current! };
}

/** The last day notice may be given for a period ending on `periodEnd`. */
function noticeDeadlineOf(term: TTerm, periodEnd: string): string {
  const notice = term.notice_period === null ? null : parsePeriod(term.notice_period);
  const end = addDaysTo(periodEnd, 1);
  return addDaysTo(notice ? subtractPeriod(end, notice) : end, -1);
}

/**
 * When a termination on `on` (null: now) makes the contract end, or why it cannot: a date before
 * today is a problem with the date (400), with a hint for an API caller apart from it (a page offers
 * "now" its own way); a contract that ended, or already ends by then, a refusal (409).
 */
export function terminationOf(
  facts: TLifeFacts,
  now: Date,
  on: string | null,
): { refusal: string } | { dateProblem: string; hint: string } | (TStaffEnd & { endDate: string }) {
  const life = lifecycleAt(facts, now);
  if (life.state === "ended") return { refusal: `The contract ended on ${life.endDate}.` };
  // A zone moved west may put now before the stored period began there: the lifecycle never goes
  // back, so no day before that period is open to an end, and "now" ends it at that first day's end.
  const beforeReached = facts.reachedAt !== null && facts.reachedAt.getTime() > now.getTime();
  const today = dateAt(beforeReached ? facts.reachedAt! : now, facts.timeZone);
  if (on !== null && on < today) return { dateProblem: `must be today (${today}) or later`, hint: "leave it out to terminate now" };
  const endDate = on ?? today;
  if (life.endDate !== null && endDate >= life.endDate) return { refusal: `The contract already ends on ${life.endDate}.` };
  // A date before a start still ahead would end it on a day it never ran (and the job, walking from
  // its period's start, would never write that end): it ends now, or on its start date or later.
  if (on !== null && on < life.startDate) return { dateProblem: `must be on or after the contract's start date (${life.startDate})`, hint: "leave it out to end it now" };
  return on === null && !beforeReached ? { endOn: null, endAt: now, endDate } : { endOn: endDate, endAt: null, endDate };
}
