import { expect, test, type Locator, type Page } from "@playwright/test";
import type { TContract, TContractList, TParticipant, TTemplateList, TWorkspaceList } from "@/lib/schemas";
import { allViolations, failOnConsoleErrors, screenshot, unique } from "./support/page-checks";
import { ADMIN, appOrigin, EDITOR, signIn } from "./support/auth";

// The contract page and its inline participant editing, against the production build and demo data.

failOnConsoleErrors();

/** A contract of our own in Sales from "Sales agreement with SMS": a company with one participant, and a person. */
async function createContract(page: Page) {
  const workspaces = (await (await page.request.get("/v1/workspaces")).json()) as TWorkspaceList;
  const sales = workspaces.data.find((w) => w.name === "Sales")!;
  const templates = (await (await page.request.get(`/v1/templates?workspace_id=${sales.id}`)).json()) as TTemplateList;
  const template = templates.data.find((t) => t.name === "Sales agreement with SMS")!;
  const suffix = unique();
  const names = { company: `Copenhagen Foods ${suffix}`, employee: `Elin Korhonen ${suffix}`, person: `Jonas Nilsen ${suffix}` };
  const res = await page.request.post("/v1/contracts/create", {
    headers: { origin: appOrigin() },
    data: {
      workspace_id: sales.id,
      template_id: template.id,
      name: `Inline editing ${suffix}`,
      parties: [
        {
          type: "company",
          name: names.company,
          country_code: "DK",
          participants: [
            { name: names.employee, email: "elin.korhonen@example.org", signatory: true, _permissions: { "contract:update": true } },
          ],
        },
        { type: "individual", participant: { name: names.person, email: "jonas.nilsen@example.org" } },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const contract = (await res.json()) as TContract;
  return { contract, names };
}

/** A participant's card on the page, by their name. */
const card = (page: Page, name: string) => page.getByRole("article", { name }).first();
/** The button that shows an attribute's value and opens its editor. */
const editButton = (scope: Locator, label: string) => scope.getByRole("button", { name: new RegExp(`, edit ${label}$`) });

/** Records the PUTs the page sends, to prove an edit was (not) sent. */
function recordPuts(page: Page): string[] {
  const puts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "PUT") puts.push(request.url());
  });
  return puts;
}

const participantPut = (page: Page) =>
  page.waitForResponse((res) => res.request().method() === "PUT" && /\/participants\/\d+$/.test(new URL(res.url()).pathname));

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
});

test("an attribute edited in place is saved, and is still there after a reload", async ({ page }) => {
  const { contract, names } = await createContract(page);
  await page.goto(`/contracts/${contract.id}`);
  const employee = card(page, names.employee);

  // Click, type, Enter.
  await editButton(employee, "Title").click();
  const title = employee.getByRole("textbox", { name: "Title" });
  await expect(title).toBeFocused();
  await title.fill("Head of Sales");
  const saved = participantPut(page);
  await title.press("Enter");
  await expect(editButton(employee, "Title")).toBeFocused();
  await expect(editButton(employee, "Title")).toContainText("Head of Sales");
  expect((await saved).status()).toBe(200);

  // Keyboard only: a phone number, then SMS delivery (which needs it), from a select.
  await editButton(employee, "Phone number").focus();
  await page.keyboard.press("Enter");
  await page.keyboard.type("+4512345678");
  let put = participantPut(page);
  await page.keyboard.press("Enter");
  expect((await put).status()).toBe(200);
  await editButton(employee, "Delivery channel").focus();
  await page.keyboard.press(" ");
  const channel = employee.getByRole("combobox", { name: "Delivery channel" });
  await expect(channel).toBeFocused();
  await expect(channel.locator("option")).toHaveText(["E-mail", "SMS", "Same device"]);
  await channel.selectOption("sms");
  put = participantPut(page);
  await page.keyboard.press("Enter");
  expect((await put).status()).toBe(200);

  // A checkbox: Space toggles it, and leaving it (blur) saves.
  await editButton(employee, "Signatory").click();
  const signatory = employee.getByRole("checkbox", { name: "Signatory" });
  await expect(signatory).toBeChecked();
  await page.keyboard.press(" ");
  put = participantPut(page);
  await page.getByRole("heading", { level: 1 }).click();
  expect((await put).status()).toBe(200);
  await expect(editButton(employee, "Signatory")).toContainText("No");

  await page.reload();
  await expect(editButton(employee, "Title")).toContainText("Head of Sales");
  await expect(editButton(employee, "Phone number")).toContainText("+4512345678");
  await expect(editButton(employee, "Delivery channel")).toContainText("SMS");
  await expect(editButton(employee, "Signatory")).toContainText("No");
  const stored = (await (await page.request.get(`/v1/contracts/${contract.id}`)).json()) as TContract;
  const company = stored.parties.find((p) => p.type === "company" && !p.my_party);
  expect(company?.type === "company" && company.participants[0]).toMatchObject({
    title: "Head of Sales",
    phone_number: "+4512345678",
    delivery_channel: "sms",
    signatory: false,
  });
});

test("a value the rules refuse is explained next to the field, and nothing is sent", async ({ page }) => {
  const { contract, names } = await createContract(page);
  await page.goto(`/contracts/${contract.id}`);
  const puts = recordPuts(page);
  const employee = card(page, names.employee);

  // A format the shared field schema refuses.
  await editButton(employee, "E-mail").click();
  const email = employee.getByRole("textbox", { name: "E-mail" });
  await email.fill("not-an-email");
  await email.press("Enter");
  await expect(employee.getByRole("alert")).toHaveText("Must be a valid e-mail address.");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toBeFocused();
  await email.press("Escape");
  await expect(editButton(employee, "E-mail")).toContainText("elin.korhonen@example.org");

  // A conditional requirement: SMS delivery needs a phone number, which this participant lacks.
  await editButton(employee, "Delivery channel").click();
  await employee.getByRole("combobox", { name: "Delivery channel" }).selectOption("sms");
  await page.keyboard.press("Enter");
  await expect(employee.getByRole("alert")).toHaveText("Phone number is required when the delivery channel is SMS.");
  await page.keyboard.press("Escape");

  // A signatory must keep the permission to update the contract.
  await editButton(employee, "May update the contract").click();
  await employee.getByRole("checkbox", { name: "May update the contract" }).uncheck();
  await page.keyboard.press("Enter");
  await expect(employee.getByRole("alert")).toHaveText("A signatory must also have the permission to update the contract.");
  await page.keyboard.press("Escape");

  // ...and someone without it cannot become one.
  const person = card(page, names.person);
  await editButton(person, "Signatory").click();
  await person.getByRole("checkbox", { name: "Signatory" }).check();
  await page.keyboard.press("Enter");
  await expect(person.getByRole("alert")).toHaveText("A signatory must also have the permission to update the contract.");

  // An empty name.
  await page.keyboard.press("Escape");
  await editButton(person, "Name").click();
  await person.getByRole("textbox", { name: "Name" }).fill("   ");
  await page.keyboard.press("Enter");
  await expect(person.getByRole("alert")).toHaveText("Must not be empty.");

  expect(puts).toEqual([]);
});

test("Escape cancels: the old value stays, focus returns to the field, nothing is sent", async ({ page }) => {
  const { contract, names } = await createContract(page);
  await page.goto(`/contracts/${contract.id}`);
  const puts = recordPuts(page);
  const person = card(page, names.person);
  const button = editButton(person, "Identification number");
  await expect(button).toContainText("Not set");
  await button.focus();
  await page.keyboard.press("Enter");
  const input = person.getByRole("textbox", { name: "Identification number" });
  await expect(input).toBeFocused();
  await page.keyboard.type("19900101-0000");
  await page.keyboard.press("Escape");
  await expect(input).toHaveCount(0);
  await expect(button).toBeFocused();
  await expect(button).toContainText("Not set");

  // The Cancel button does the same for pointer users.
  await button.click();
  await person.getByRole("textbox", { name: "Identification number" }).fill("something else");
  await person.getByRole("button", { name: "Cancel" }).click();
  await expect(button).toContainText("Not set");
  expect(puts).toEqual([]);
});

test("a save the server refuses (409: the contract was signed) shows its reason in place, and the old value returns", async ({ page }) => {
  const signed = (await (await page.request.get("/v1/contracts?state=signed&limit=1")).json()) as TContractList;
  const summary = signed.data[0]!;
  const contract = (await (await page.request.get(`/v1/contracts/${summary.id}`)).json()) as TContract;
  const counterparty = contract.parties.find((p) => !p.my_party)!;
  const participant: TParticipant = counterparty.type === "company" ? counterparty.participants[0]! : counterparty.participant;

  // As it is: the page says why nothing can be edited, and offers no editing.
  await page.goto(`/contracts/${contract.id}`);
  await expect(page.getByText("This contract is signed: its parties and participants can no longer change.")).toBeVisible();
  await expect(card(page, participant.name)).toBeVisible();
  await expect(page.getByRole("button", { name: /, edit / })).toHaveCount(0);

  // A page loaded before the contract was signed: it still offers editing, and the server refuses.
  await page.route(
    (url) => url.pathname === `/v1/contracts/${contract.id}`,
    async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), state: "pending" } });
    },
  );
  await page.reload();
  const person = card(page, participant.name);
  await editButton(person, "Title").click();
  await person.getByRole("textbox", { name: "Title" }).fill("Changed after signing");
  const put = participantPut(page);
  await page.keyboard.press("Enter");
  expect((await put).status()).toBe(409);
  await expect(person.getByRole("alert")).toContainText(`is signed; its parties and participants can only change while it is draft or pending`);
  await expect(editButton(person, "Title")).toContainText(participant.title || "Not set");
  await expect(person).not.toContainText("Changed after signing");
  // The page refetches the contract after a save; that request may still be passing the route.
  await page.unrouteAll({ behavior: "ignoreErrors" });
});

test("the owner side is marked, and its participant's e-mail cannot be edited", async ({ page }) => {
  const { contract } = await createContract(page);
  await page.goto(`/contracts/${contract.id}`);
  const ownerSide = page.getByRole("region", { name: "Acme Nordic AB" });
  await expect(ownerSide).toContainText("Your side");
  const admin = ownerSide.getByRole("article", { name: ADMIN.name });
  await expect(admin).toContainText(ADMIN.email);
  await expect(editButton(admin, "E-mail")).toHaveCount(0);
  await expect(admin).toContainText("it cannot be changed here");
  // Its other attributes can be.
  await expect(editButton(admin, "Title")).toBeVisible();
});

test("someone who only views the workspace sees the participants without editing", async ({ page }) => {
  await signIn(page, EDITOR);
  const workspaces = (await (await page.request.get("/v1/workspaces")).json()) as TWorkspaceList;
  const legal = workspaces.data.find((w) => w.name === "Legal Norway")!;
  expect(legal._permissions["contract:create"]).toBe(false);
  const drafts = (await (await page.request.get(`/v1/contracts?workspace_id=${legal.id}&state=draft&limit=1`)).json()) as TContractList;
  await page.goto(`/contracts/${drafts.data[0]!.id}`);
  await expect(page.getByText("You can view this workspace's contracts but not change them.")).toBeVisible();
  await expect(page.getByRole("article").first()).toBeVisible();
  await expect(page.getByRole("button", { name: /, edit / })).toHaveCount(0);
});

test("the data fields are listed, with their values and descriptions", async ({ page }) => {
  const { contract } = await createContract(page);
  await page.goto(`/contracts/${contract.id}`);
  const table = page.getByRole("table", { name: "Data fields" });
  await expect(table.getByRole("row")).toHaveCount(4);
  await expect(table.getByRole("row", { name: /Payment terms/ })).toContainText("30 days net");
  await expect(table.getByRole("row", { name: /Order value/ })).toContainText("Not filled in");
  // All of them fit one page: no pagination.
  await expect(page.getByRole("navigation", { name: "Data field pages" })).toHaveCount(0);
});

test("an id that names no contract shows 'Contract not found'", async ({ page }) => {
  await page.goto("/contracts/2147483000");
  await expect(page.getByRole("heading", { level: 1, name: "Contract not found" })).toBeVisible();
  const response = await page.goto("/contracts/not-a-number");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Contract not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to contracts" }).click();
  await expect(page).toHaveURL(/\/contracts$/);
});

test("the contract page passes an axe scan, also while a field is edited with an error", async ({ page }) => {
  const { contract, names } = await createContract(page);
  await page.goto(`/contracts/${contract.id}`);
  await expect(page.getByRole("table", { name: "Data fields" }).getByRole("row")).toHaveCount(4);
  expect(await allViolations(page)).toEqual([]);
  await screenshot(page, "contract-page");

  const employee = card(page, names.employee);
  await editButton(employee, "E-mail").click();
  await employee.getByRole("textbox", { name: "E-mail" }).fill("nope");
  await page.keyboard.press("Enter");
  await expect(employee.getByRole("alert")).toBeVisible();
  expect(await allViolations(page)).toEqual([]);
  await screenshot(page, "contract-page-editing");

  await page.goto("/contracts/2147483000");
  await expect(page.getByRole("heading", { level: 1, name: "Contract not found" })).toBeVisible();
  expect(await allViolations(page)).toEqual([]);
  await screenshot(page, "contract-not-found");
});
