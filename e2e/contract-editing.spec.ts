import { expect, test, type Page } from "@playwright/test";
import type { TContract, TContractList, TDataField, TDataFieldList, TTemplateList, TWorkspaceList } from "@/lib/schemas";
import { allViolations, failOnConsoleErrors, screenshot, unique } from "./support/page-checks";
import { ADMIN, appOrigin, signIn } from "./support/auth";

// Changing a draft from its page: counterparties and participants added and removed, data field
// values edited in place (docs/web-app.md "Changing a draft"), against the production build.

failOnConsoleErrors();

/** A draft of our own in Sales from "Sales agreement with SMS", with no counterparty yet; `filled`: every data field has a value. */
async function createDraft(page: Page, { filled = false }: { filled?: boolean } = {}): Promise<TContract> {
  const workspaces = (await (await page.request.get("/v1/workspaces")).json()) as TWorkspaceList;
  const sales = workspaces.data.find((w) => w.name === "Sales")!;
  const templates = (await (await page.request.get(`/v1/templates?workspace_id=${sales.id}`)).json()) as TTemplateList;
  const template = templates.data.find((t) => t.name === "Sales agreement with SMS")!;
  const detail = (await (await page.request.get(`/v1/templates/${template.id}`)).json()) as { data_fields: { custom_id: string }[] };
  const data_fields = filled ? detail.data_fields.map(({ custom_id }) => ({ custom_id, value: `Value of ${custom_id}` })) : [];
  const res = await page.request.post("/v1/contracts/create", {
    headers: { origin: appOrigin() },
    data: { workspace_id: sales.id, template_id: template.id, name: `Editing ${unique()}`, data_fields },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as TContract;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const missing = (page: Page) => page.getByRole("list", { name: "What is missing" });
const dialog = (page: Page, name: string) => page.getByRole("dialog", { name });

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
});

test("a counterparty and a participant are added and removed, with confirmations and the API's refusals", async ({ page }) => {
  // Its data fields filled, so that only the parties stand between the draft and publishing.
  const contract = await createDraft(page, { filled: true });
  const suffix = unique();
  const company = `Fjord Logistics ${suffix}`;
  const first = `Maja Lind ${suffix}`;
  const second = `Olav Berg ${suffix}`;
  await page.goto(`/contracts/${contract.id}`);
  await expect(missing(page)).toContainText("The contract has no counterparty.");

  // The wizard's fields and rules: nothing is sent until they pass.
  await page.getByRole("button", { name: "Add company" }).click();
  const form = page.getByRole("form", { name: "New counterparty: company" });
  await expect(form.getByLabel("Company name (required)")).toBeFocused();
  await form.getByRole("button", { name: "Add counterparty" }).click();
  await expect(form.getByText("Must not be empty.").first()).toBeVisible();
  expect(await allViolations(page)).toEqual([]);

  await form.getByLabel("Company name (required)").fill(company);
  await form.getByLabel("Name (required)", { exact: true }).fill(first);
  await form.getByLabel("E-mail (required)").fill("maja.lind@example.org");
  await form.getByRole("checkbox", { name: "Signatory" }).check();
  const added = page.waitForResponse((res) => res.request().method() === "POST" && new URL(res.url()).pathname.endsWith("/parties"));
  await form.getByRole("button", { name: "Add counterparty" }).click();
  expect((await added).status()).toBe(200);
  const party = page.getByRole("region", { name: company });
  await expect(party.getByRole("article", { name: first })).toBeVisible();
  await expect(form).toHaveCount(0);
  // The readiness checklist follows: a counterparty with a signatory is there now.
  await expect(page.getByText("The contract has no counterparty.")).toHaveCount(0);
  await expect(page.getByText("Ready to publish.")).toBeVisible();

  // A second participant, with the wizard's participant fields.
  await party.getByRole("button", { name: `Add participant to ${company}` }).click();
  const participantForm = page.getByRole("form", { name: `New participant of ${company}` });
  await participantForm.getByLabel("Name (required)", { exact: true }).fill(second);
  await participantForm.getByLabel("E-mail (required)").fill("olav.berg@example.org");
  await participantForm.getByRole("button", { name: "Add participant" }).click();
  await expect(party.getByRole("article", { name: second })).toBeVisible();

  // Removing it: Cancel first (nothing happens), then confirm.
  await party.getByRole("button", { name: `Remove participant ${second}` }).click();
  const confirmParticipant = dialog(page, "Remove this participant?");
  await expect(confirmParticipant).toBeVisible();
  await expect(confirmParticipant.getByRole("button", { name: "Cancel" })).toBeFocused();
  expect(await allViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(confirmParticipant).toBeHidden();
  await expect(party.getByRole("button", { name: `Remove participant ${second}` })).toBeFocused();
  await party.getByRole("button", { name: `Remove participant ${second}` }).click();
  await confirmParticipant.getByRole("button", { name: "Remove participant" }).click();
  await expect(party.getByRole("article", { name: second })).toHaveCount(0);

  // The last participant of a counterparty: the API refuses (409), and the dialog says why.
  await party.getByRole("button", { name: `Remove participant ${first}` }).click();
  await confirmParticipant.getByRole("button", { name: "Remove participant" }).click();
  await expect(confirmParticipant.getByRole("alert")).toContainText("is the last participant of party");
  await screenshot(page, "refused-removal");
  await confirmParticipant.getByRole("button", { name: "Cancel" }).click();
  await expect(party.getByRole("article", { name: first })).toBeVisible();

  // The organizer has no Remove at all (the API would refuse it too).
  const organizer = page.getByRole("article").filter({ has: page.getByText("Organizer", { exact: true }) });
  await expect(organizer).toHaveCount(1);
  await expect(organizer.getByRole("button", { name: /^Remove/ })).toHaveCount(0);

  // The counterparty, confirmed: gone, and the checklist misses a counterparty again.
  await party.getByRole("button", { name: `Remove counterparty ${company}` }).click();
  await dialog(page, "Remove this counterparty?").getByRole("button", { name: "Remove counterparty" }).click();
  await expect(page.getByRole("region", { name: company })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Parties", exact: true })).toBeFocused();
  await expect(missing(page)).toContainText("The contract has no counterparty.");

  const stored = (await (await page.request.get(`/v1/contracts/${contract.id}`)).json()) as TContract;
  expect(stored.parties.filter((p) => !p.my_party)).toEqual([]);
});

test("an individual counterparty is added; removing its one participant is refused with the API's message", async ({ page }) => {
  const contract = await createDraft(page);
  const person = `Sigrid Dahl ${unique()}`;
  await page.goto(`/contracts/${contract.id}`);
  await page.getByRole("button", { name: "Add individual" }).click();
  const form = page.getByRole("form", { name: "New counterparty: person" });
  await form.getByLabel("Name (required)", { exact: true }).fill(person);
  await form.getByLabel("E-mail (required)").fill("sigrid.dahl@example.org");
  await form.getByRole("button", { name: "Add counterparty" }).click();
  await expect(page.getByRole("region", { name: person })).toBeVisible();
  // Without a signatory the checklist says so.
  await expect(missing(page)).toContainText(`${person} has no signatory.`);

  // An individual party is its one participant: removing it is refused with the API's words.
  const region = page.getByRole("region", { name: person });
  await region.getByRole("button", { name: `Remove participant ${person}` }).click();
  const confirm = dialog(page, "Remove this participant?");
  await confirm.getByRole("button", { name: "Remove participant" }).click();
  await expect(confirm.getByRole("alert")).toContainText("The participant was not removed:");
  await expect(confirm.getByRole("alert")).toContainText("last participant");
});

test("a long name without spaces wraps: the contract page is never wider than the window", async ({ page }) => {
  const contract = await createDraft(page);
  const long = "Ö".repeat(100);
  const added = await page.request.post(`/v1/contracts/${contract.id}/parties`, {
    headers: { origin: appOrigin() },
    data: { type: "individual", participant: { name: long, email: `long.${unique()}@example.org` } },
  });
  expect(added.status(), await added.text()).toBe(200);
  await page.goto(`/contracts/${contract.id}`);
  await expect(page.getByRole("heading", { level: 3, name: long })).toBeVisible();
  // The Activity names it too, once loaded.
  await expect(page.getByRole("list", { name: "Activity, newest first" })).toContainText(long);
  // Nothing reaches past the window's right edge (named, to say which when something does).
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => `${e.tagName}.${e.className}`.slice(0, 120)),
  );
  expect(wide).toEqual([]);
});

test("a data field's value is edited in place: Escape cancels, Enter saves, and it is stored", async ({ page }) => {
  const contract = await createDraft(page);
  await page.goto(`/contracts/${contract.id}`);
  const row = page.getByRole("row", { name: /Order value/ });
  const edit = row.getByRole("button", { name: /, edit value of Order value$/ });
  await expect(edit).toContainText("Not filled in");

  await edit.click();
  const input = row.getByRole("textbox", { name: "Value of Order value" });
  await expect(input).toBeFocused();
  await input.fill("dropped");
  await input.press("Escape");
  await expect(edit).toBeFocused();
  await expect(edit).toContainText("Not filled in");

  await edit.click();
  await input.fill("12 500 EUR");
  const put = page.waitForResponse((res) => res.request().method() === "PUT" && /\/data_fields\/\d+$/.test(new URL(res.url()).pathname));
  await input.press("Enter");
  expect((await put).status()).toBe(200);
  await expect(edit).toBeFocused();
  await expect(edit).toContainText("12 500 EUR");
  // The Activity names the field, not its number.
  await expect(page.getByRole("list", { name: "Activity, newest first" }).getByRole("listitem").first()).toContainText("changed data field Order value");
  expect(await allViolations(page)).toEqual([]);

  await page.reload();
  await expect(page.getByRole("row", { name: /Order value/ }).getByRole("button", { name: /, edit value of Order value$/ })).toContainText("12 500 EUR");
  const fields = (await (await page.request.get(`/v1/contracts/${contract.id}/data_fields/c::order_value`)).json()) as { value: string };
  expect(fields.value).toBe("12 500 EUR");

  // Spaces alone fill nothing: shown as missing, as the text and the publish check read it.
  const again = page.getByRole("row", { name: /Order value/ }).getByRole("button", { name: /, edit value of Order value$/ });
  await again.click();
  await page.getByRole("row", { name: /Order value/ }).getByRole("textbox", { name: "Value of Order value" }).fill("   ");
  const blank = page.waitForResponse((res) => res.request().method() === "PUT" && /\/data_fields\/\d+$/.test(new URL(res.url()).pathname));
  await page.getByRole("row", { name: /Order value/ }).getByRole("textbox", { name: "Value of Order value" }).press("Enter");
  expect((await blank).status()).toBe(200);
  await expect(again).toContainText("Not filled in");
});

test("a page that missed the publishing: a refused data field save returns the old value with the API's reason", async ({ page }) => {
  // A published contract with data fields, shown as if it were still a draft (a page loaded before it was published).
  const pending = (await (await page.request.get("/v1/contracts?state=pending&limit=20")).json()) as TContractList;
  let contractId: number | undefined;
  let field: TDataField | undefined;
  for (const summary of pending.data) {
    const fields = (await (await page.request.get(`/v1/contracts/${summary.id}/data_fields`)).json()) as TDataFieldList;
    field = fields.data.find((f) => f.value !== "");
    if (field) {
      contractId = summary.id;
      break;
    }
  }
  expect(field, "a pending demo contract with a filled-in data field").toBeDefined();
  await page.route(
    (url) => url.pathname === `/v1/contracts/${contractId}`,
    async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), state: "draft" } });
    },
  );
  await page.goto(`/contracts/${contractId}`);
  await expect(page.getByRole("heading", { name: "Parties", exact: true })).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(escapeRegExp(field!.name)) }).first();
  const edit = row.getByRole("button", { name: new RegExp(`, edit value of ${escapeRegExp(field!.name)}$`) });
  await edit.click();
  await row.getByRole("textbox", { name: `Value of ${field!.name}` }).fill("Changed after publishing");
  const put = page.waitForResponse((res) => res.request().method() === "PUT" && /\/data_fields\/\d+$/.test(new URL(res.url()).pathname));
  await page.keyboard.press("Enter");
  expect((await put).status()).toBe(409);
  await expect(row.getByRole("alert")).toContainText("published");
  await expect(edit).toContainText(field!.value);
  await expect(row).not.toContainText("Changed after publishing");
  await page.unrouteAll({ behavior: "ignoreErrors" });
});
