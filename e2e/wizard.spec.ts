import { expect, test, type Locator, type Page } from "@playwright/test";
import { allViolations, failOnConsoleErrors, screenshot, unique } from "./support/page-checks";
import { ADMIN, EDITOR, signIn } from "./support/auth";

// The contract-creation wizard against the production build and the demo data (playwright.config.ts).

failOnConsoleErrors();

const currentStep = (page: Page) => page.getByRole("navigation", { name: "Steps" }).locator('[aria-current="step"]');

/** Step 1, filled in: the name (unless blank), the workspace and the template. */
async function fillBasics(page: Page, { name, workspace, template }: { name: string; workspace: string; template: string }) {
  await page.goto("/contracts/new");
  await expect(page.getByRole("heading", { level: 1, name: "New contract" })).toBeVisible();
  await expect(currentStep(page)).toContainText("Contract");
  if (name) await page.getByLabel("Contract name").fill(name);
  await page.getByLabel("Workspace").selectOption({ label: workspace });
  const templateSelect = page.getByLabel("Template");
  await expect(templateSelect.locator("option", { hasText: template })).toHaveCount(1);
  await templateSelect.selectOption({ label: template });
}

async function next(page: Page, expectedStep: string) {
  await page.getByRole("button", { name: "Next" }).click();
  await expect(currentStep(page)).toContainText(expectedStep);
}

const party = (page: Page, number: number, kind: "company" | "person") => page.getByRole("group", { name: `Counterparty ${number}: ${kind}` });
const participant = (scope: Locator, legend: string) => scope.getByRole("group", { name: legend, exact: true });
/** A participant's name input ("Name (required)"), not the company's or another field's. */
const nameField = (scope: Locator) => scope.getByRole("textbox", { name: /^Name/ });

test("a company with two participants, end to end: the new contract's page shows them", async ({ page }) => {
  await signIn(page, ADMIN);
  const name = `Wizard company ${unique()}`;
  await fillBasics(page, { name, workspace: "Sales", template: "Mutual NDA" });
  await next(page, "Counterparties");

  await page.getByRole("button", { name: "Add company" }).click();
  const company = party(page, 1, "company");
  await expect(company.getByLabel("Company name")).toBeFocused();
  await company.getByLabel("Company name").fill("Fjord Testing AS");
  await company.getByLabel("Country").selectOption("NO");
  await company.getByLabel("Registration number").fill("998877665");

  const first = participant(company, "Participant 1");
  // Mutual NDA delivers by e-mail only: e-mail is asked for (and required), the phone is not.
  await expect(first.getByLabel("Phone number")).toHaveCount(0);
  await expect(first.getByLabel("Delivery channel").locator("option")).toHaveText(["E-mail"]);
  await expect(first.getByLabel("Sign method")).toHaveValue("standard_esign");
  await nameField(first).fill("Nora Fjord");
  await first.getByLabel("Title").fill("CEO");
  await first.getByLabel("E-mail").fill("nora.fjord@example.org");
  await first.getByLabel("Signatory").check();
  // Signatory implies the permission to update the contract.
  await expect(first.getByLabel("May update the contract")).toBeChecked();

  await company.getByRole("button", { name: "Add participant" }).click();
  const second = participant(company, "Participant 2");
  await nameField(second).fill("Emil Strand");
  await second.getByLabel("E-mail").fill("emil.strand@example.org");

  await next(page, "Review");
  const review = page.locator("form");
  await expect(review).toContainText(name);
  await expect(review).toContainText("Fjord Testing AS");
  await expect(review).toContainText("Norway");
  await expect(review).toContainText("nora.fjord@example.org");
  await expect(review).toContainText("emil.strand@example.org");

  await page.getByRole("button", { name: "Create contract" }).click();
  await expect(page).toHaveURL(/\/contracts\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const fjord = page.getByRole("region", { name: "Fjord Testing AS" });
  await expect(fjord.getByRole("article", { name: "Nora Fjord" })).toContainText("nora.fjord@example.org");
  await expect(fjord.getByRole("article", { name: "Emil Strand" })).toContainText("emil.strand@example.org");
  await expect(page.getByRole("region", { name: "Acme Nordic AB" })).toContainText("Your side");

  // What the page shows is what the API stored.
  const id = Number(new URL(page.url()).pathname.split("/").pop());
  const stored = await (await page.request.get(`/v1/contracts/${id}`)).json();
  const counterparty = stored.parties.find((p: { my_party: boolean }) => !p.my_party);
  expect(counterparty).toMatchObject({ type: "company", name: "Fjord Testing AS", country_code: "NO", identification_number: "998877665" });
  expect(counterparty.participants).toMatchObject([
    { name: "Nora Fjord", title: "CEO", email: "nora.fjord@example.org", signatory: true, _permissions: { "contract:update": true } },
    { name: "Emil Strand", email: "emil.strand@example.org", signatory: false },
  ]);
});

test("a counterparty just added shows no problems before anything is typed in it; Next shows each next to its field, focuses the first, and typing clears it", async ({ page }) => {
  await signIn(page, ADMIN);
  // Step 1 tried and refused first: that says nothing of how step 2's fields behave.
  await page.goto("/contracts/new");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByLabel("Workspace")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Contract name").fill(`Wizard problems ${unique()}`);
  await page.getByLabel("Workspace").selectOption({ label: "Sales" });
  await expect(page.getByLabel("Template").locator("option", { hasText: "Mutual NDA" })).toHaveCount(1);
  await page.getByLabel("Template").selectOption({ label: "Mutual NDA" });
  await next(page, "Counterparties");

  await page.getByRole("button", { name: "Add company" }).click();
  const company = party(page, 1, "company");
  await expect(company.getByLabel("Company name")).toBeFocused();
  await expect(page.locator('[aria-invalid="true"]')).toHaveCount(0);
  await expect(company.getByText("Must not be empty.")).toHaveCount(0);

  // Left empty, a field says nothing yet (the page does not move under the pointer); typed wrong and left, it says so.
  await company.getByLabel("Company name").press("Tab");
  await expect(company.getByLabel("Company name")).not.toHaveAttribute("aria-invalid", "true");
  const email = participant(company, "Participant 1").getByLabel("E-mail");
  await email.fill("nora@");
  await email.press("Tab");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(company.getByLabel("Company name")).not.toHaveAttribute("aria-invalid", "true");

  // Next checks them all: each problem next to its field, and focus on the first.
  await page.getByRole("button", { name: "Next" }).click();
  await expect(currentStep(page)).toContainText("Counterparties");
  const first = participant(company, "Participant 1");
  await expect(nameField(first)).toHaveAttribute("aria-invalid", "true");
  await expect(company.getByLabel("Company name")).toHaveAttribute("aria-invalid", "true");
  await expect(company.getByLabel("Company name")).toBeFocused();

  // Another counterparty added now is not wrong before anything is typed in it.
  await page.getByRole("button", { name: "Add individual" }).click();
  const person = party(page, 2, "person");
  await expect(person.locator('[aria-invalid="true"]')).toHaveCount(0);
  await expect(nameField(first)).toHaveAttribute("aria-invalid", "true");

  // Typing in a field Next found wrong checks it again at once.
  await nameField(first).fill("Nora Fjord");
  await expect(nameField(first)).not.toHaveAttribute("aria-invalid", "true");
  expect(await allViolations(page)).toEqual([]);

  // The marks move with their counterparty: with the company removed, the person (now first) and a company added after it are not wrong.
  await page.getByRole("button", { name: "Remove counterparty 1" }).click();
  await expect(party(page, 1, "person").locator('[aria-invalid="true"]')).toHaveCount(0);
  await page.getByRole("button", { name: "Add company" }).click();
  await expect(party(page, 2, "company").getByLabel("Company name")).toBeFocused();
  await expect(page.locator('[aria-invalid="true"]')).toHaveCount(0);
});

test("an individual party, created by an editor in the one workspace they may create in", async ({ page }) => {
  await signIn(page, EDITOR);
  await page.goto("/contracts/new");
  // The editor only views Legal Norway: only Sales is offered.
  const workspaces = page.getByLabel("Workspace").locator("option");
  await expect(workspaces).toHaveText(["Choose a workspace", "Sales"]);

  await fillBasics(page, { name: "", workspace: "Sales", template: "Mutual NDA" });
  await next(page, "Counterparties");
  await page.getByRole("button", { name: "Add individual" }).click();
  const person = participant(party(page, 1, "person"), "Person");
  const personName = `Ingrid Holm ${unique()}`;
  await nameField(person).fill(personName);
  await person.getByLabel("E-mail").fill("ingrid.holm@example.org");
  await person.getByLabel("Identification number").fill("19800101-1234");
  await person.getByLabel("Signatory").check();

  await next(page, "Review");
  // No name typed: the contract is named after its template.
  await expect(page.locator("form")).toContainText("the template's name");
  await page.getByRole("button", { name: "Create contract" }).click();
  await expect(page).toHaveURL(/\/contracts\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Mutual NDA" })).toBeVisible();
  const individual = page.getByRole("region", { name: personName });
  await expect(individual).toContainText("Individual");
  await expect(individual.getByRole("article", { name: personName })).toContainText("19800101-1234");
});

test("with SMS delivery the phone number appears and is required, and the contract is created with it", async ({ page }) => {
  await signIn(page, ADMIN);
  const name = `Wizard SMS ${unique()}`;
  await fillBasics(page, { name, workspace: "Sales", template: "Sales agreement with SMS" });
  await next(page, "Counterparties");
  await page.getByRole("button", { name: "Add individual" }).click();
  const person = participant(party(page, 1, "person"), "Person");
  await nameField(person).fill("Lars Dahl");

  // The template's options, and its preferred ones pre-selected.
  await expect(person.getByLabel("Delivery channel").locator("option")).toHaveText(["E-mail", "SMS", "Same device"]);
  await expect(person.getByLabel("Delivery channel")).toHaveValue("email");
  await expect(person.getByLabel("Two-step authentication")).toHaveValue("none");
  await expect(person.getByLabel("Phone number")).toHaveCount(0);

  await person.getByLabel("Delivery channel").selectOption("sms");
  const phone = person.getByLabel("Phone number");
  await expect(phone).toBeVisible();
  await expect(phone).toHaveAttribute("aria-required", "true");
  await expect(person.getByLabel("E-mail")).toHaveCount(0);

  await page.getByRole("button", { name: "Next" }).click();
  await expect(currentStep(page)).toContainText("Counterparties");
  await expect(phone).toHaveAttribute("aria-invalid", "true");
  await expect(person.getByText("Required when the delivery channel is SMS.", { exact: true })).toBeVisible();
  await expect(phone).toBeFocused();

  await phone.fill("12345");
  await phone.blur();
  await expect(person.getByText("Must be in E.164 format, e.g. +46701234567.", { exact: true })).toBeVisible();
  await phone.fill("+46701112233");
  await next(page, "Review");
  await expect(page.locator("form")).toContainText("+46701112233");
  await expect(page.locator("form")).toContainText("SMS");

  await page.getByRole("button", { name: "Create contract" }).click();
  await expect(page).toHaveURL(/\/contracts\/\d+$/);
  const card = page.getByRole("article", { name: "Lars Dahl" });
  await expect(card).toContainText("+46701112233");
  await expect(card).toContainText("SMS");
});

test("back and next keep what was typed", async ({ page }) => {
  await signIn(page, ADMIN);
  const name = `Wizard back ${unique()}`;
  await fillBasics(page, { name, workspace: "Legal Norway", template: "Nordic BankID employment" });
  await next(page, "Counterparties");
  await page.getByRole("button", { name: "Add company" }).click();
  const company = party(page, 1, "company");
  await company.getByLabel("Company name").fill("Aurora Software AS");
  const first = participant(company, "Participant 1");
  // Nordic BankID: e-mail and SMS preferred (both required), Swedish BankID preferred.
  await expect(first.getByLabel("Delivery channel")).toHaveValue("email_and_sms");
  await expect(first.getByLabel("Sign method")).toHaveValue("swedish_bankid");
  await nameField(first).fill("Oskar Lund");
  await first.getByLabel("E-mail").fill("oskar.lund@example.org");
  await first.getByLabel("Phone number").fill("+4790000000");
  await first.getByLabel("Sign method").selectOption("norwegian_bankid");

  await page.getByRole("button", { name: "Back" }).click();
  await expect(currentStep(page)).toContainText("Contract");
  await expect(page.getByRole("heading", { name: "Step 1 of 3: Contract" })).toBeFocused();
  await expect(page.getByLabel("Contract name")).toHaveValue(name);
  await expect(page.getByLabel("Workspace")).toHaveValue(/\d+/);
  await expect(page.getByLabel("Template").locator("option:checked")).toHaveText("Nordic BankID employment");

  await next(page, "Counterparties");
  await expect(company.getByLabel("Company name")).toHaveValue("Aurora Software AS");
  await expect(first.getByLabel("E-mail")).toHaveValue("oskar.lund@example.org");
  await expect(first.getByLabel("Phone number")).toHaveValue("+4790000000");
  await expect(first.getByLabel("Sign method")).toHaveValue("norwegian_bankid");

  await next(page, "Review");
  await page.getByRole("button", { name: "Change counterparties" }).click();
  await expect(currentStep(page)).toContainText("Counterparties");
  await expect(nameField(first)).toHaveValue("Oskar Lund");

  // Enter in a field moves on (it does not create the contract early).
  await first.getByLabel("Title").press("Enter");
  await expect(currentStep(page)).toContainText("Review");
  await expect(page.locator("form")).toContainText("Norwegian BankID");
});

test("another template keeps what was typed, and options it does not offer fall back to its defaults", async ({ page }) => {
  await signIn(page, ADMIN);
  await fillBasics(page, { name: `Wizard template ${unique()}`, workspace: "Legal Norway", template: "Nordic BankID employment" });
  await next(page, "Counterparties");
  await page.getByRole("button", { name: "Add individual" }).click();
  const person = participant(party(page, 1, "person"), "Person");
  await nameField(person).fill("Maja Jensen");
  await person.getByLabel("E-mail").fill("maja.jensen@example.org");
  await person.getByLabel("Phone number").fill("+4791234567");
  await person.getByLabel("Two-step authentication").selectOption("email");

  await page.getByRole("button", { name: "Back" }).click();
  await page.getByLabel("Template").selectOption({ label: "Mutual NDA" });
  await next(page, "Counterparties");
  await expect(nameField(person)).toHaveValue("Maja Jensen");
  await expect(person.getByLabel("E-mail")).toHaveValue("maja.jensen@example.org");
  // Mutual NDA offers e-mail, standard e-signature and no two-step method only.
  await expect(person.getByLabel("Delivery channel")).toHaveValue("email");
  await expect(person.getByLabel("Sign method")).toHaveValue("standard_esign");
  await expect(person.getByLabel("Two-step authentication")).toHaveValue("none");
  await expect(person.getByLabel("Phone number")).toHaveCount(0);

  await next(page, "Review");
  // The phone typed for the old template is not shown any more, so it is not sent either.
  await expect(page.locator("form")).not.toContainText("+4791234567");
  const request = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/v1/contracts/create"));
  await page.getByRole("button", { name: "Create contract" }).click();
  const sent = (await request).postDataJSON();
  expect(sent.parties[0]).toMatchObject({
    type: "individual",
    participant: { name: "Maja Jensen", phone_number: "", delivery_channel: "email", sign_method: "standard_esign", two_step_authentication_method: "none" },
  });
  await expect(page).toHaveURL(/\/contracts\/\d+$/);
});

test("the server's refusal lands on the right field of the right step", async ({ page }) => {
  await signIn(page, ADMIN);
  await fillBasics(page, { name: `Wizard refused ${unique()}`, workspace: "Sales", template: "Mutual NDA" });
  await next(page, "Counterparties");
  await page.getByRole("button", { name: "Add company" }).click();
  const company = party(page, 1, "company");
  await company.getByLabel("Company name").fill("Baltic Steel AB");
  const first = participant(company, "Participant 1");
  await nameField(first).fill("Sofia Berg");
  await first.getByLabel("E-mail").fill("sofia.berg@example.org");
  await next(page, "Review");

  // The client's checks pass; the service refuses the address (as it would, say, a blocked domain).
  const message = "is not accepted by the mail service";
  await page.route("**/v1/contracts/create", (route) =>
    route.fulfill({
      status: 400,
      contentType: "application/json",
      json: {
        status: 400,
        title: "Bad Request",
        detail: `parties.0.participants.0.email: ${message}`,
        error_code: 4000000,
        parameter_problems: { "parties.0.participants.0.email": [message] },
      },
    }),
  );
  await page.getByRole("button", { name: "Create contract" }).click();

  await expect(currentStep(page)).toContainText("Counterparties");
  const email = first.getByLabel("E-mail");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  // One plain sentence beside the field; the summary says where, not the same words again.
  await expect(first.getByText("Is not accepted by the mail service.", { exact: true })).toBeVisible();
  await expect(email).toBeFocused();
  const summary = page.getByRole("alert").filter({ hasText: "The contract was not created" });
  await expect(summary).toContainText("Counterparty 1, participant 1: E-mail");
  await expect(summary).not.toContainText(message);
  // The typed values are all still there.
  await expect(email).toHaveValue("sofia.berg@example.org");
  await expect(company.getByLabel("Company name")).toHaveValue("Baltic Steel AB");
});

test("every step of the wizard passes an axe scan", async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto("/contracts/new");
  await expect(page.getByLabel("Workspace").locator("option")).not.toHaveCount(1);
  expect(await allViolations(page)).toEqual([]);
  await screenshot(page, "wizard-step-1");

  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByLabel("Workspace")).toHaveAttribute("aria-invalid", "true");
  expect(await allViolations(page)).toEqual([]);

  await fillBasics(page, { name: "", workspace: "Sales", template: "Sales agreement with SMS" });
  await next(page, "Counterparties");
  expect(await allViolations(page)).toEqual([]);

  await page.getByRole("button", { name: "Add company" }).click();
  await page.getByRole("button", { name: "Add individual" }).click();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(party(page, 1, "company").getByLabel("Company name")).toHaveAttribute("aria-invalid", "true");
  expect(await allViolations(page)).toEqual([]);
  await screenshot(page, "wizard-step-2-errors");

  const company = party(page, 1, "company");
  await company.getByLabel("Company name").fill("Greenfield Energy AB");
  await nameField(participant(company, "Participant 1")).fill("Anna Sund");
  await participant(company, "Participant 1").getByLabel("E-mail").fill("anna.sund@example.org");
  const person = participant(party(page, 2, "person"), "Person");
  await nameField(person).fill("Mikael Virtanen");
  await person.getByLabel("E-mail").fill("mikael.virtanen@example.org");
  await next(page, "Review");
  expect(await allViolations(page)).toEqual([]);
  await screenshot(page, "wizard-step-3-review");
});
