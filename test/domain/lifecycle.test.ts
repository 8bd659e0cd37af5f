import { describe, expect, it } from "vitest";
import { addPeriod, dateAt, parsePeriod, startOf } from "@/lib/domain/calendar";
import { lifecycleAt, noticeRefusal, NO_TERM, reachedAtOf, termProblems, terminationOf, type TLifeFacts, type TTerm } from "@/lib/domain/lifecycle";

const term = (t: Partial<TTerm>): TTerm => ({ ...NO_TERM, ...t });
const at = (iso: string) => new Date(iso);
const facts = (t: Partial<TTerm>, more: Partial<TLifeFacts> = {}): TLifeFacts => ({
  term: term(t),
  timeZone: "Europe/Stockholm",
  signedOn: "2026-01-10",
  endOn: null,
  endAt: null,
  endKind: null,
  reachedAt: null,
  noticeDeadlineReached: null,
  ...more,
});

describe("calendar arithmetic", () => {
  it("adds months clamped to the month's end: 31 January plus one month is the last day of February", () => {
    expect(addPeriod("2026-01-31", parsePeriod("P1M")!)).toBe("2026-02-28");
    expect(addPeriod("2028-01-31", parsePeriod("P1M")!)).toBe("2028-02-29");
    expect(addPeriod("2028-02-29", parsePeriod("P1Y")!)).toBe("2029-02-28");
    // Periods are counted from the start, so month ends do not drift: the third month after 31 January ends 30 April.
    expect(addPeriod("2026-01-31", parsePeriod("P1M")!, 3)).toBe("2026-04-30");
  });

  it("reads a date and its midnight in the workspace's time zone, across daylight saving", () => {
    expect(dateAt(at("2026-03-28T23:30:00Z"), "Europe/Stockholm")).toBe("2026-03-29");
    expect(dateAt(at("2026-03-28T23:30:00Z"), "America/New_York")).toBe("2026-03-28");
    expect(startOf("2026-03-29", "Europe/Stockholm").toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(startOf("2026-03-30", "Europe/Stockholm").toISOString()).toBe("2026-03-29T22:00:00.000Z");
  });

  it("refuses periods of more than one unit, zero, or beyond 100 years", () => {
    expect([parsePeriod("P1Y2M"), parsePeriod("P0M"), parsePeriod("P101Y"), parsePeriod("p1y"), parsePeriod("P1Y")]).toEqual([null, null, null, null, { count: 1, unit: "Y" }]);
  });
});

describe("the duration's rules", () => {
  it("allows only the settings each duration has", () => {
    expect(termProblems(term({ duration: "none", start_date: "2026-01-01" }))).toEqual([]);
    expect(termProblems(term({ duration: "none", end_date: "2026-12-31", notice_period: "P1M" })).map((p) => p.path)).toEqual(["end_date", "notice_period"]);
    expect(termProblems(term({ duration: "single_period", renewal_period: "P1Y", initial_duration: "P1Y" })).map((p) => p.path)).toEqual(["renewal_period"]);
    expect(termProblems(term({ duration: "recurring", renewal_period: "P1Y", end_date: "2026-12-31" })).map((p) => p.path)).toEqual(["end_date"]);
  });

  it("requires a single period's length, a renewal period, and one of end_date or initial_duration", () => {
    expect(termProblems(term({ duration: "single_period" }))).toEqual([{ path: "end_date", message: expect.stringContaining("unless initial_duration") }]);
    expect(termProblems(term({ duration: "single_period", end_date: "2026-12-31", initial_duration: "P1Y" })).map((p) => p.path)).toEqual(["initial_duration"]);
    expect(termProblems(term({ duration: "recurring" })).map((p) => p.path)).toEqual(["renewal_period"]);
    expect(termProblems(term({ duration: "recurring_with_initial", renewal_period: "P1Y" })).map((p) => p.path)).toEqual(["end_date"]);
  });

  it("refuses a notice period as long as a period or longer, and an end before the start", () => {
    expect(termProblems(term({ duration: "recurring", renewal_period: "P1Y", notice_period: "P11M" }))).toEqual([]);
    expect(termProblems(term({ duration: "recurring", renewal_period: "P1Y", notice_period: "P12M" }))).toEqual([{ path: "notice_period", message: "must be shorter than the renewal period (1 year)" }]);
    expect(termProblems(term({ duration: "recurring", renewal_period: "P1M", notice_period: "P4W" })).map((p) => p.path)).toEqual(["notice_period"]);
    expect(termProblems(term({ duration: "recurring_with_initial", renewal_period: "P1Y", initial_duration: "P2M", notice_period: "P3M" })).map((p) => p.message)).toEqual([
      "must be shorter than the initial duration (2 months)",
    ]);
    expect(termProblems(term({ duration: "single_period", start_date: "2026-05-01", end_date: "2026-04-30" }))).toEqual([{ path: "end_date", message: "must not be before start_date" }]);
    const oneDay = term({ duration: "recurring_with_initial", start_date: "2026-01-01", end_date: "2026-01-01", renewal_period: "P1Y", notice_period: "P1D" });
    expect(termProblems(oneDay)).toEqual([{ path: "notice_period", message: "must be shorter than the initial period (1 day)" }]);
  });
});

describe("the lifecycle at an instant", () => {
  const yearly = { duration: "recurring" as const, start_date: "2026-02-01", renewal_period: "P1Y", notice_period: "P3M" };

  it("awaits its start date, starts at midnight in the workspace's time zone, renews each year", () => {
    const f = facts(yearly);
    expect(lifecycleAt(f, at("2026-01-20T12:00:00Z"))).toMatchObject({ state: "awaiting", periodStartDate: "2026-02-01", periodEndDate: "2027-01-31", noticeDeadline: "2026-10-31", nextChangeAt: at("2026-01-31T23:00:00Z") });
    expect(lifecycleAt(f, at("2026-01-31T22:59:59Z")).state).toBe("awaiting");
    expect(lifecycleAt(f, at("2026-01-31T23:00:00Z"))).toMatchObject({ state: "active", renewals: 0, nextChangeAt: at("2027-01-31T23:00:00Z") });
    expect(lifecycleAt(f, at("2027-03-01T00:00:00Z"))).toMatchObject({ state: "active", renewals: 1, periodStartDate: "2027-02-01", periodEndDate: "2028-01-31", endDate: null, noticeDeadline: "2027-10-31" });
  });

  it("starts on the day it is signed when no start date is set, and a single period ends by itself", () => {
    const f = facts({ duration: "single_period", initial_duration: "P1M" }, { signedOn: "2026-01-31" });
    expect(lifecycleAt(f, at("2026-02-10T00:00:00Z"))).toMatchObject({ state: "active", startDate: "2026-01-31", endDate: "2026-02-27", nextChangeAt: startOf("2026-02-28", "Europe/Stockholm") });
    expect(lifecycleAt(f, startOf("2026-02-28", "Europe/Stockholm"))).toMatchObject({ state: "ended", subState: null, endDate: "2026-02-27", nextChangeAt: null });
  });

  it("never goes back from what was stored: a zone moved west reads a renewal, a start or an end already reached from then", () => {
    const honolulu = (more: Partial<TLifeFacts> = {}) => facts(yearly, { timeZone: "Pacific/Honolulu", ...more });
    const afterRenewal = at("2027-01-31T23:30:00Z"); // 1 February in Stockholm, 31 January in Honolulu
    const renewed = reachedAtOf({ state: "active", periodStartDate: "2027-02-01", endDate: null }, "Pacific/Honolulu");
    expect(lifecycleAt(honolulu(), afterRenewal)).toMatchObject({ renewals: 0, periodStartDate: "2026-02-01" });
    expect(lifecycleAt(honolulu({ reachedAt: renewed }), afterRenewal)).toMatchObject({ state: "active", renewals: 1, periodStartDate: "2027-02-01", nextChangeAt: startOf("2028-02-01", "Pacific/Honolulu") });
    const started = reachedAtOf({ state: "active", periodStartDate: "2026-02-01", endDate: null }, "Pacific/Honolulu");
    expect(lifecycleAt(honolulu({ reachedAt: started }), at("2026-01-31T23:30:00Z")).state).toBe("active");
    const single = { duration: "single_period" as const, start_date: "2026-02-01", end_date: "2026-02-28" };
    const ended = reachedAtOf({ state: "ended", periodStartDate: "2026-02-01", endDate: "2026-02-28" }, "Pacific/Honolulu");
    expect(lifecycleAt(facts(single, { timeZone: "Pacific/Honolulu", reachedAt: ended }), at("2026-02-28T23:30:00Z"))).toMatchObject({ state: "ended", nextChangeAt: null });
    expect(reachedAtOf({ state: "awaiting", periodStartDate: "2026-02-01", endDate: null }, "UTC")).toBeNull();
  });

  it("takes notice before, on and after the deadline", () => {
    const f = facts(yearly);
    // Before and on the deadline (the last day, 31 October, until midnight in Stockholm): it ends at the period's end.
    for (const when of ["2026-06-01T10:00:00Z", "2026-10-31T22:59:00Z"]) expect(noticeRefusal(f, at(when))).toEqual({ endOn: "2027-01-31", endAt: null, endDate: "2027-01-31" });
    // After it: refused, naming the earliest end instead.
    expect(noticeRefusal(f, at("2026-10-31T23:00:00Z"))).toEqual({ refusal: "Notice to end on 2027-01-31 was due by 2026-10-31; the earliest the contract can now end is 2028-01-31." });
    const canceled = { ...f, endOn: "2027-01-31", endKind: "canceled" as const };
    expect(lifecycleAt(canceled, at("2026-12-01T00:00:00Z"))).toMatchObject({ state: "active", subState: "canceled", endDate: "2027-01-31", noticeDeadline: null, nextChangeAt: startOf("2027-02-01", "Europe/Stockholm") });
    expect(lifecycleAt(canceled, at("2027-02-01T00:00:00Z"))).toMatchObject({ state: "ended", subState: null, renewals: 0 });
  });

  it("signed after the first notice deadline (it starts on signing): the earliest notice ends the period after the first", () => {
    // Notice one month before the end of a first period ending 28 February: due by 31 January; signed 10 February.
    const f = facts({ duration: "recurring_with_initial", end_date: "2026-02-28", renewal_period: "P1M", notice_period: "P1M" }, { signedOn: "2026-02-10" });
    expect(lifecycleAt(f, at("2026-02-10T12:00:00Z"))).toMatchObject({ periodEndDate: "2026-02-28", noticeDeadline: "2026-02-28", noticePeriodEndDate: "2026-03-31" });
    expect(noticeRefusal(f, at("2026-02-10T12:00:00Z"))).toEqual({
      refusal: "Notice to end on 2026-02-28 was due by 2026-01-31; the earliest the contract can now end is 2026-03-31.",
    });
  });

  it("keeps staff's end on its last day when the zone changes later: no day moves, no renewal past it", () => {
    // Notice given in Stockholm for the period ending 2027-01-31; the workspace then moves to UTC+14 and to UTC−12.
    const canceled = facts(yearly, { endOn: "2027-01-31", endKind: "canceled" });
    const east = { ...canceled, timeZone: "Pacific/Kiritimati" };
    // 2027-02-01 00:30 in Kiritimati: ended on its last day, the period never renewed.
    expect(lifecycleAt(east, at("2027-01-31T10:30:00Z"))).toMatchObject({ state: "ended", endDate: "2027-01-31", renewals: 0 });
    // 2027-01-31 12:00 in UTC−12, an hour after Stockholm's midnight: still in force there.
    expect(lifecycleAt({ ...canceled, timeZone: "Etc/GMT+12" }, at("2027-02-01T00:00:00Z"))).toMatchObject({ state: "active", subState: "canceled", endDate: "2027-01-31" });
  });

  it("counts an initial duration's renewals from the start, as a recurring term's: a month's end is clamped once, never carried", () => {
    const starts = (t: Partial<TTerm>, days: string[]) => days.map((day) => lifecycleAt(facts(t, { timeZone: "UTC" }), at(`${day}T12:00:00Z`)).periodStartDate);
    const monthly = { duration: "recurring_with_initial" as const, start_date: "2024-01-31", initial_duration: "P1M", renewal_period: "P1M" };
    expect(starts(monthly, ["2024-02-29", "2024-03-31", "2024-04-30", "2024-05-31"])).toEqual(["2024-02-29", "2024-03-31", "2024-04-30", "2024-05-31"]);
    expect(starts({ ...monthly, duration: "recurring", initial_duration: null }, ["2024-03-31", "2024-04-30"])).toEqual(["2024-03-31", "2024-04-30"]);
    const leapYearly = { duration: "recurring_with_initial" as const, start_date: "2024-02-29", initial_duration: "P1Y", renewal_period: "P1Y" };
    expect(starts(leapYearly, ["2025-02-28", "2027-02-28", "2028-02-29"])).toEqual(["2025-02-28", "2027-02-28", "2028-02-29"]);
    // Months, then days: a renewal in days counts from the initial period's (clamped) end.
    expect(starts({ ...monthly, renewal_period: "P30D" }, ["2024-03-30"])).toEqual(["2024-03-30"]);
  });

  it("finds the period of a daily renewal started in 1900 directly and right (no walk per period)", () => {
    // 46,714 daily renewals by 2027-11-25: walking them one by one took seconds per call, and the
    // walk's cap of 40,000 left the contract in a 2009 period, with no next change.
    const daily = facts({ duration: "recurring", start_date: "1900-01-01", renewal_period: "P1D" });
    expect(lifecycleAt(daily, at("2027-11-25T12:00:00Z"))).toMatchObject({ state: "active", periodStartDate: "2027-11-25", periodEndDate: "2027-11-25", renewals: 46_714, noticeDeadline: "2027-11-25", nextChangeAt: startOf("2027-11-26", "Europe/Stockholm") });
    const withInitial = facts({ duration: "recurring_with_initial", start_date: "1900-01-01", end_date: "1900-12-31", renewal_period: "P1W", notice_period: "P2D" });
    expect(lifecycleAt(withInitial, at("2027-11-25T12:00:00Z"))).toMatchObject({ periodStartDate: "2027-11-23", periodEndDate: "2027-11-29", renewals: 6_622, noticeDeadline: "2027-11-27" });
    expect(lifecycleAt(withInitial, at("1900-06-01T12:00:00Z"))).toMatchObject({ periodStartDate: "1900-01-01", periodEndDate: "1900-12-31", renewals: 0 });
  });

  it("terminates now or on a date, and refuses a date in the past", () => {
    const f = facts(yearly);
    const now = at("2026-06-01T10:00:00Z");
    expect(terminationOf(f, now, null)).toEqual({ endOn: null, endAt: now, endDate: "2026-06-01" });
    expect(lifecycleAt({ ...f, endAt: now, endKind: "terminated" }, now)).toMatchObject({ state: "ended", subState: "terminated", endDate: "2026-06-01" });
    expect(terminationOf(f, now, "2026-07-15")).toEqual({ endOn: "2026-07-15", endAt: null, endDate: "2026-07-15" });
    expect(terminationOf(f, now, "2026-05-31")).toEqual({ dateProblem: "must be today (2026-06-01) or later", hint: "leave it out to terminate now" });
  });

  it("starts on signing after its end date has passed: a first period of the signing day, never a period before the start", () => {
    const single = facts({ duration: "single_period", end_date: "2026-06-30" }, { signedOn: "2026-11-29" });
    expect(lifecycleAt(single, at("2026-11-29T12:00:00Z"))).toMatchObject({ state: "active", startDate: "2026-11-29", periodStartDate: "2026-11-29", periodEndDate: "2026-11-29", endDate: "2026-11-29", renewals: 0 });
    expect(lifecycleAt(single, at("2026-11-30T12:00:00Z"))).toMatchObject({ state: "ended", periodStartDate: "2026-11-29", endDate: "2026-11-29" });
    const renewing = facts({ duration: "recurring_with_initial", end_date: "2026-01-15", renewal_period: "P1M", notice_period: "P10D" }, { signedOn: "2026-11-29" });
    expect(lifecycleAt(renewing, at("2026-11-29T12:00:00Z"))).toMatchObject({ state: "active", periodStartDate: "2026-11-29", periodEndDate: "2026-11-29", renewals: 0 });
    expect(lifecycleAt(renewing, at("2026-12-05T12:00:00Z"))).toMatchObject({ state: "active", periodStartDate: "2026-11-30", periodEndDate: "2026-12-29", renewals: 1 });
    // An end date still ahead at signing is kept.
    expect(lifecycleAt({ ...single, signedOn: "2026-06-01" }, at("2026-06-02T12:00:00Z"))).toMatchObject({ periodStartDate: "2026-06-01", endDate: "2026-06-30" });
  });

  it("ends a contract that has not started now, or on its start date or later, never on a day between", () => {
    const awaiting = facts({ ...yearly, start_date: "2027-01-01" });
    const now = at("2026-06-01T10:00:00Z");
    expect(lifecycleAt(awaiting, now)).toMatchObject({ state: "awaiting", startDate: "2027-01-01" });
    expect(terminationOf(awaiting, now, null)).toEqual({ endOn: null, endAt: now, endDate: "2026-06-01" });
    expect(lifecycleAt({ ...awaiting, endAt: now, endKind: "terminated" }, now)).toMatchObject({ state: "ended", subState: "terminated", nextChangeAt: null, periodStartDate: "2026-06-01", periodEndDate: "2026-06-01" });
    expect(terminationOf(awaiting, now, "2026-12-31")).toEqual({ dateProblem: "must be on or after the contract's start date (2027-01-01)", hint: "leave it out to end it now" });
    expect(terminationOf(awaiting, now, "2027-01-01")).toEqual({ endOn: "2027-01-01", endAt: null, endDate: "2027-01-01" });
    // Ended so, it runs its one day and ends, as any terminated contract.
    expect(lifecycleAt({ ...awaiting, endOn: "2027-01-01", endKind: "terminated" }, at("2027-01-03T10:00:00Z"))).toMatchObject({
      state: "ended",
      subState: "terminated",
      startDate: "2027-01-01",
      endDate: "2027-01-01",
    });
  });
});
