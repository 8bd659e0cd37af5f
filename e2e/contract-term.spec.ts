import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import type { TContract, TTemplateList, TWorkspaceList } from "@/lib/schemas";
import { dayWords } from "@/components/calendar-date";
import { ADMIN, appOrigin, signIn } from "./support/auth";
import { allViolations, failOnConsoleErrors, screenshot, unique } from "./support/page-checks";

// Issue 44 in the browser: the term in the wizard and on the contract page, and a signed contract's
// lifecycle with Give notice, Terminate and internal reminders, against the production build and
// the demo data. Signed contracts are made by the product's own operations: created and published
// through /v1, signed on the signing page.

failOnConsoleErrors();

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
});

/** A date `months` months and `days` days from today (UTC), `YYYY-MM-DD`. */
function dateFromToday({ months = 0, days = 0 }: { months?: number; days?: number }): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, now.getUTCDate() + days)).toISOString().slice(0, 10);
}

const termSection = (page: Page) => page.getByRole("region", { name: "Term", exact: true });
const lifecycle = (page: Page) => page.getByRole("group", { name: "Lifecycle" });
/** A period field's number (its unit select is "<label> unit"). */
const periodCount = (scope: Page | Locator, label: string) => scope.getByRole("textbox", { name: new RegExp(`^${label}`) });
/** The sentence standing next to a field: what its aria-describedby names first. */
async function problemOf(field: Locator): Promise<string> {
  await expect(field).toHaveAttribute("aria-describedby", /-error\b/);
  const ids = (await field.getAttribute("aria-describedby")) ?? "";
  const errorId = ids.split(" ").find((id) => id.endsWith("-error"));
  expect(errorId, `no problem is described for the field (aria-describedby="${ids}")`).toBeTruthy();
  return (await field.page().locator(`[id="${errorId}"]`).textContent()) ?? "";
}

test("the wizard creates a recurring contract with its term; a notice as long as the period is refused next to the field; the draft's term is changed on its page", async ({ page }) => {
  const name = `Recurring ${unique()}`;
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/v1/contracts/create") posts.push(request.url());
  });
  await page.goto("/contracts/new");
  await page.getByLabel("Contract name").fill(name);
  await page.getByLabel("Workspace").selectOption({ label: "Sales" });
  await page.getByLabel("Template").selectOption({ label: "Mutual NDA" });

  // The template's default (the demo NDA runs one period of two years): no renewal is asked for.
  const term = page.getByRole("group", { name: "Term" });
  await expect(term.getByLabel("Duration", { exact: true })).toHaveValue("single_period");
  await expect(periodCount(term, "Renewal period")).toHaveCount(0);

  await term.getByLabel("Duration", { exact: true }).selectOption({ label: "Recurring: renews until notice is given" });
  await expect(term.getByLabel("End date")).toHaveCount(0);
  await term.getByLabel("Starts").selectOption({ label: "On a date" });
  await term.getByLabel("Start date").fill("2027-01-01");
  await periodCount(term, "Renewal period").fill("1");
  await term.getByLabel("Renewal period unit").selectOption({ label: "years" });
  await periodCount(term, "Notice period").fill("12");
  await term.getByLabel("Notice period unit").selectOption({ label: "months" });
  await page.getByRole("button", { name: "Next" }).click();

  // Refused by the shared rules before anything is sent: one sentence, next to the field, no field names.
  const notice = periodCount(term, "Notice period");
  await expect(notice).toHaveAttribute("aria-invalid", "true");
  expect(await problemOf(notice)).toBe("Notice period must be shorter than the renewal period (1 year).");
  await expect(term.getByText("Notice period must be shorter than the renewal period (1 year).")).toHaveCount(1);
  // Focus is on the field to mend, as for any other field of the step.
  await expect(notice).toBeFocused();
  expect(await allViolations(page)).toEqual([]);
  await notice.fill("3");
  await expect(notice).not.toHaveAttribute("aria-invalid", "true");

  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Add company" }).click();
  const company = page.getByRole("group", { name: "Counterparty 1: company" });
  await company.getByLabel("Company name").fill("Fjord Renewals AS");
  const first = company.getByRole("group", { name: "Participant 1", exact: true });
  await first.getByRole("textbox", { name: /^Name/ }).fill("Rita Renew");
  await first.getByLabel("E-mail").fill(`rita.${unique()}@example.org`);
  await first.getByLabel("Signatory").check();
  await page.getByRole("button", { name: "Next" }).click();

  // The review says what will be sent.
  const review = page.getByRole("region", { name: "Term", exact: true });
  await expect(review).toContainText("Recurring: renews until notice is given");
  await expect(review).toContainText(`On ${dayWords("2027-01-01")}`);
  await expect(review).toContainText("1 year");
  await expect(review).toContainText("3 months");
  expect(posts).toEqual([]);
  await page.getByRole("button", { name: "Create contract" }).click();
  await expect(page).toHaveURL(/\/contracts\/\d+$/);
  const contractId = Number(page.url().split("/").pop());

  // Stored as sent, and shown on the contract page, editable while a draft.
  const stored = (await (await page.request.get(`/v1/contracts/${contractId}`)).json()) as TContract;
  expect(stored.lifecycle_settings).toEqual({ duration: "recurring", start_date: "2027-01-01", end_date: null, initial_duration: null, renewal_period: "P1Y", notice_period: "P3M" });
  const section = termSection(page);
  await expect(section.getByLabel("Duration", { exact: true })).toHaveValue("recurring");
  await expect(section.getByLabel("Start date")).toHaveValue("2027-01-01");
  await expect(periodCount(section, "Renewal period")).toHaveValue("1");
  await expect(periodCount(section, "Notice period")).toHaveValue("3");

  // Changed on the page: the same rules, then the PUT; Activity says what changed.
  await section.getByLabel("Duration", { exact: true }).selectOption({ label: "Recurring after an initial period" });
  await section.getByLabel("Initial period ends").selectOption({ label: "On a date" });
  await section.getByLabel("End date").fill("2026-12-31");
  await section.getByRole("button", { name: "Save term" }).click();
  expect(await problemOf(section.getByLabel("End date"))).toBe("End date must not be before the start date.");
  await section.getByLabel("End date").fill("2027-06-30");
  await periodCount(section, "Notice period").fill("2");
  await section.getByRole("button", { name: "Save term" }).click();
  await expect(section.getByRole("status")).toHaveText("Term saved.");
  const saved = (await (await page.request.get(`/v1/contracts/${contractId}`)).json()) as TContract;
  expect(saved.lifecycle_settings).toEqual({ duration: "recurring_with_initial", start_date: "2027-01-01", end_date: "2027-06-30", initial_duration: null, renewal_period: "P1Y", notice_period: "P2M" });
  const activity = page.getByRole("list", { name: "Activity, newest first" });
  const change = activity.getByRole("listitem").filter({ hasText: "changed the contract's term" }).first();
  await expect(change).toContainText("Notice period: 3 months");
  await expect(change).toContainText("2 months");
  // A day in words, as the page shows days elsewhere.
  await expect(change).toContainText(`End date: ${dayWords("2027-06-30")}`);
  expect(await allViolations(page)).toEqual([]);
  await screenshot(page, "draft-term");
});

test("the server's refusal of a term setting lands next to that field of step 1, in words", async ({ page }) => {
  await page.goto("/contracts/new");
  await page.getByLabel("Workspace").selectOption({ label: "Sales" });
  await page.getByLabel("Template").selectOption({ label: "Mutual NDA" });
  const term = page.getByRole("group", { name: "Term" });
  await term.getByLabel("Duration", { exact: true }).selectOption({ label: "Recurring: renews until notice is given" });
  await periodCount(term, "Renewal period").fill("1");
  await term.getByLabel("Renewal period unit").selectOption({ label: "years" });
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Next" }).click();
  // The request as another client might send it: a notice as long as the period, which only the server now sees.
  await page.route("**/v1/contracts/create", async (route) => {
    const body = route.request().postDataJSON() as { lifecycle_settings: Record<string, unknown> };
    await route.continue({ postData: JSON.stringify({ ...body, lifecycle_settings: { ...body.lifecycle_settings, notice_period: "P1Y" } }) });
  });
  const response = page.waitForResponse((res) => new URL(res.url()).pathname === "/v1/contracts/create");
  await page.getByRole("button", { name: "Create contract" }).click();
  expect((await response).status()).toBe(400);
  await expect(page.getByRole("alert").filter({ hasText: "The contract was not created" })).toContainText("Term: Notice period");
  const notice = periodCount(term, "Notice period");
  expect(await problemOf(notice)).toBe("Notice period must be shorter than the renewal period (1 year).");
  expect(await allViolations(page)).toEqual([]);
  await page.unrouteAll({ behavior: "ignoreErrors" });
});

type TSigned = { id: number; name: string };

/** A contract in Sales from the Mutual NDA with `lifecycle_settings`, published through /v1 and signed on its signing page. */
async function signedContract(page: Page, browser: Browser, lifecycleSettings: Record<string, string | null>): Promise<TSigned> {
  const origin = { origin: appOrigin() };
  const workspaces = (await (await page.request.get("/v1/workspaces")).json()) as TWorkspaceList;
  const sales = workspaces.data.find((w) => w.name === "Sales")!;
  const templates = (await (await page.request.get(`/v1/templates?workspace_id=${sales.id}&limit=100`)).json()) as TTemplateList;
  const nda = templates.data.find((t) => t.name === "Mutual NDA")!;
  const name = `Term ${unique()}`;
  const person = `Signe Term ${unique()}`;
  const created = await page.request.post("/v1/contracts/create", {
    headers: origin,
    data: {
      workspace_id: sales.id,
      template_id: nda.id,
      name,
      lifecycle_settings: lifecycleSettings,
      data_fields: [{ custom_id: "effective_date", value: "2026-12-01" }],
      parties: [{ type: "individual", participant: { name: person, email: `signe.${unique()}@example.org`, signatory: true } }],
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const contract = (await created.json()) as TContract;
  const published = await page.request.post(`/v1/contracts/${contract.id}/publish`, { headers: origin, data: {} });
  expect(published.status(), await published.text()).toBe(200);
  const party = contract.parties.find((p) => !p.my_party)!;
  const participantId = party.type === "individual" ? party.participant.id : party.participants[0]!.id;
  const link = await page.request.get(`/v1/contracts/${contract.id}/parties/${party.id}/participants/${participantId}/signing_link`);
  expect(link.status(), await link.text()).toBe(200);
  const signer = await (await browser.newContext()).newPage();
  await signer.goto(((await link.json()) as { url: string }).url);
  await signer.getByLabel("Type your full name to sign").fill(person);
  await signer.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(signer.getByRole("heading", { name: "You have signed" })).toBeVisible();
  await signer.context().close();
  return { id: contract.id, name };
}

/** Opens the dialog behind `button`, confirms with `confirm`, and returns the action's response. */
async function confirmAction(page: Page, button: string, confirm: string, path: RegExp, fill?: (dialog: Locator) => Promise<void>) {
  await lifecycle(page).getByRole("button", { name: button }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  if (fill) await fill(dialog);
  const response = page.waitForResponse((res) => res.request().method() === "POST" && path.test(new URL(res.url()).pathname));
  await dialog.getByRole("button", { name: confirm, exact: true }).click();
  return { dialog, response: await response };
}

test("a signed recurring contract shows its lifecycle; notice in time is accepted; termination on a date shortens it", async ({ page, browser }) => {
  const start = dateFromToday({ months: -1 });
  const contract = await signedContract(page, browser, { duration: "recurring", start_date: start, renewal_period: "P1Y", notice_period: "P1M" });
  await page.goto(`/contracts/${contract.id}`);
  const api = (await (await page.request.get(`/v1/contracts/${contract.id}`)).json()) as TContract;
  const life = api.lifecycle_state;
  expect(life.state).toBe("active");

  const status = lifecycle(page);
  await expect(status).toContainText("StateActive");
  await expect(status).toContainText(`Current period${dayWords(life.period_start_date!)} to ${dayWords(life.period_end_date!)}`);
  await expect(status).toContainText(`Notice deadline${dayWords(life.notice_deadline!)}`);
  await expect(status).toContainText("Renewals0");
  // Published, the term is read as agreed, not edited.
  await expect(termSection(page).getByRole("heading", { name: "Agreed term" })).toBeVisible();
  await expect(termSection(page).getByRole("button", { name: "Save term" })).toHaveCount(0);
  await expect(termSection(page)).toContainText(`On ${dayWords(start)}`);
  expect(await allViolations(page)).toEqual([]);

  const { response } = await confirmAction(page, "Give notice", "Give notice", /\/cancel$/);
  expect(response.status()).toBe(200);
  await expect(status.getByRole("status")).toHaveText(`Notice given: the contract ends on ${dayWords(life.period_end_date!)}.`);
  await expect(status).toContainText("StateActive: notice given");
  await expect(status).toContainText(`Ends on${dayWords(life.period_end_date!)}`);
  await expect(status.getByRole("button", { name: "Give notice" })).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Activity, newest first" })).toContainText("gave notice: the contract ends at the end of its current period");

  // A date before today is refused next to the field, in the dialog's words (its "Now" is the API's "leave it out").
  const past = await confirmAction(page, "Terminate", "Terminate", /\/terminate$/, async (dialog) => {
    await dialog.getByLabel("At the end of a date").check();
    await dialog.getByLabel("Last day in force").fill(dateFromToday({ days: -3 }));
  });
  expect(past.response.status()).toBe(400);
  await expect(past.dialog.getByText(/^The date must be today \(\d{4}-\d{2}-\d{2}\) or later\.$/)).toBeVisible();
  // Focus is on the field to mend, not lost to the page with the button disabled while it ran.
  await expect(past.dialog.getByLabel("Last day in force")).toBeFocused();
  await past.dialog.getByRole("button", { name: "Cancel" }).click();

  // Terminated on a date before that end: it ends then.
  const lastDay = dateFromToday({ days: 10 });
  const terminated = await confirmAction(page, "Terminate", "Terminate", /\/terminate$/, async (dialog) => {
    await dialog.getByLabel("At the end of a date").check();
    await dialog.getByLabel("Last day in force").fill(lastDay);
  });
  expect(terminated.response.status()).toBe(200);
  expect(terminated.response.request().postDataJSON()).toEqual({ date: lastDay });
  await expect(status.getByRole("status")).toHaveText(`The contract was terminated: it ends on ${dayWords(lastDay)}.`);
  await expect(status).toContainText(`Ends on${dayWords(lastDay)}`);
  await expect(page.getByRole("list", { name: "Activity, newest first" })).toContainText("terminated the contract");
  await screenshot(page, "signed-lifecycle");
});

test("notice after the deadline is refused with the one sentence saying when it can end; Terminate now ends it", async ({ page, browser }) => {
  // Started 11 months ago, a year at a time, three months' notice: this period's deadline has passed.
  const contract = await signedContract(page, browser, { duration: "recurring", start_date: dateFromToday({ months: -11 }), renewal_period: "P1Y", notice_period: "P3M" });
  await page.goto(`/contracts/${contract.id}`);
  const status = lifecycle(page);
  await expect(status).toContainText("StateActive");

  const { dialog, response } = await confirmAction(page, "Give notice", "Give notice", /\/cancel$/);
  expect(response.status()).toBe(409);
  const detail = ((await response.json()) as { detail: string }).detail;
  expect(detail).toMatch(/^Notice to end on \d{4}-\d{2}-\d{2} was due by \d{4}-\d{2}-\d{2}; the earliest the contract can now end is \d{4}-\d{2}-\d{2}\.$/);
  await expect(dialog.getByRole("alert")).toHaveText(detail);
  // The refusal leaves focus in the dialog, on its button, not on the page behind it.
  await expect(dialog.getByRole("button", { name: "Give notice" })).toBeFocused();
  expect(await allViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(status).toContainText("StateActive");

  const terminated = await confirmAction(page, "Terminate", "Terminate", /\/terminate$/);
  expect(terminated.response.status()).toBe(200);
  expect(terminated.response.request().postDataJSON()).toEqual({});
  await expect(status.getByRole("status")).toHaveText("The contract was terminated: it has ended.");
  await expect(status).toContainText("StateEnded: terminated");
  await expect(status.getByRole("button", { name: "Terminate" })).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Activity, newest first" })).toContainText("terminated the contract");
});

test("internal reminders: a past date is refused next to the field; one is added for a colleague, listed, and removed", async ({ page, browser }) => {
  const contract = await signedContract(page, browser, { duration: "none", start_date: null });
  await page.goto(`/contracts/${contract.id}`);
  const section = page.getByRole("region", { name: "Internal reminders" });
  await expect(section).toContainText("No reminders set.");
  const form = section.getByRole("form", { name: "Add an internal reminder" });

  await form.getByLabel("Date").fill(dateFromToday({ days: -3 }));
  await form.getByLabel("Note").fill("Check the price list");
  await form.getByLabel("Who gets it").selectOption({ label: "Eddie Editor (editor@example.com)" });
  await form.getByRole("button", { name: "Add reminder" }).click();
  expect(await problemOf(form.getByLabel("Date"))).toMatch(/^Date must be today \(\d{4}-\d{2}-\d{2}.*\) or later\.$/);

  const date = dateFromToday({ days: 7 });
  await form.getByLabel("Date").fill(date);
  await form.getByRole("button", { name: "Add reminder" }).click();
  await expect(form.getByRole("status")).toHaveText(`Reminder set for ${date}, to Eddie Editor.`);
  const list = section.getByRole("list", { name: "Internal reminders" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText(`${date} · to Eddie Editor`);
  await expect(list).toContainText("Check the price list");
  await expect(list).toContainText("Not sent yet");
  await expect(page.getByRole("list", { name: "Activity, newest first" })).toContainText("set an internal reminder");
  expect(await allViolations(page)).toEqual([]);

  await list.getByRole("button", { name: `Remove the reminder of ${date} to Eddie Editor` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Remove reminder" }).click();
  await expect(dialog).toBeHidden();
  await expect(section).toContainText("No reminders set.");
  await expect(page.getByRole("list", { name: "Activity, newest first" })).toContainText("removed an internal reminder");
});
