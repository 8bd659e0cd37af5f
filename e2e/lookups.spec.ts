import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { EDITOR, signIn } from "./support/auth";

// The lookup tables share the contracts table's pagination. The demo data has only a handful of
// users, workspaces, templates and template types, so these tests page with `limit=2` in the URL
// (any page size the API accepts works in a link; the select offers it alongside the usual sizes).

type TList = { count: number; data: { id: number; name: string }[] };

const LOOKUPS = [
  { path: "/users", api: "/v1/users", heading: "Users", noun: "users" },
  { path: "/workspaces", api: "/v1/workspaces", heading: "Workspaces", noun: "workspaces" },
  { path: "/templates", api: "/v1/templates", heading: "Templates", noun: "templates" },
  { path: "/template-types", api: "/v1/template_types", heading: "Template types", noun: "template types" },
] as const;

async function apiList(page: Page, path: string): Promise<TList> {
  const res = await page.request.get(path);
  expect(res.status()).toBe(200);
  return (await res.json()) as TList;
}

const names = (page: Page, caption: string) => page.getByRole("region", { name: caption }).getByRole("rowheader");

/** Axe finds nothing; the screenshot is kept as a test artifact (test-results/…/<name>.png). */
async function noViolations(page: Page, name: string, { fullPage = true, impacts }: { fullPage?: boolean; impacts?: string[] } = {}) {
  const path = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage });
  await test.info().attach(name, { path, contentType: "image/png" });
  const { violations: all } = await new AxeBuilder({ page }).analyze();
  const violations = impacts ? all.filter((v) => impacts.includes(v.impact ?? "")) : all;
  expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

for (const lookup of LOOKUPS) {
  test(`${lookup.heading}: lists the rows and pages through them`, async ({ page }) => {
    const all = await apiList(page, `${lookup.api}?limit=100`);
    expect(all.count).toBeGreaterThan(2);

    await page.goto(lookup.path);
    await expect(page.getByRole("heading", { level: 1, name: lookup.heading })).toBeVisible();
    await expect(names(page, lookup.heading)).toHaveText(all.data.slice(0, 25).map((row) => row.name));
    await expect(page.getByText(/^Showing /)).toHaveText(`Showing 1–${all.count} of ${all.count} ${lookup.noun}`);

    await page.goto(`${lookup.path}?limit=2`);
    await expect(names(page, lookup.heading)).toHaveText(all.data.slice(0, 2).map((row) => row.name));
    await expect(page.getByText(/^Showing /)).toHaveText(`Showing 1–2 of ${all.count} ${lookup.noun}`);
    await expect(page.getByLabel("Rows per page")).toHaveValue("2");

    const pagination = page.getByRole("navigation", { name: "Pagination" });
    await pagination.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(new RegExp(`${lookup.path}\\?limit=2&offset=2$`));
    await expect(names(page, lookup.heading)).toHaveText(all.data.slice(2, 4).map((row) => row.name));
    await expect(pagination.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");

    await page.goBack();
    await expect(names(page, lookup.heading)).toHaveText(all.data.slice(0, 2).map((row) => row.name));
  });

  test(`${lookup.heading}: no accessibility violations`, async ({ page }) => {
    await page.goto(lookup.path);
    await expect(page.getByText(/^Showing /)).toBeVisible();
    await noViolations(page, lookup.path.slice(1));
  });
}

test("templates show their options, the preferred ones marked, and their workspaces", async ({ page }) => {
  await page.goto("/templates");
  const row = page.getByRole("row", { name: /Sales agreement with SMS/ });
  await expect(row).toBeVisible();
  const cells = row.getByRole("cell");
  // Workspaces, delivery channels, sign methods, two-step methods (after the name and type).
  await expect(cells.nth(1)).toHaveText(/Sales.*Legal Norway/);
  await expect(cells.nth(2)).toContainText("E-mail");
  await expect(cells.nth(2)).toContainText("SMS");
  await expect(cells.nth(2).getByRole("listitem").filter({ hasText: "preferred" })).toHaveCount(1);
  await expect(cells.nth(2).getByRole("listitem").filter({ hasText: "preferred" })).toContainText("E-mail");
  await expect(cells.nth(3)).toContainText("Standard e-signature");
  await expect(cells.nth(4)).toContainText("SMS code");
});

test("workspaces say where the user may create contracts", async ({ page }) => {
  await page.context().clearCookies();
  await signIn(page, EDITOR);
  await page.goto("/workspaces");
  await expect(page.getByRole("row", { name: /^Sales/ })).toContainText("Yes");
  await expect(page.getByRole("row", { name: /^Legal Norway/ })).toContainText("No");
  await expect(page.getByRole("row", { name: /^Procurement/ })).toHaveCount(0);
});

// The reference is Swagger UI (app/(app)/api-reference): operations listed by tag, each opening on a
// click into its parameters, request body schema and responses.
test("the API reference renders the OpenAPI document, with the create-contract operation", async ({ page }) => {
  // Two loads of the reference, each resolving the whole document in the browser.
  test.setTimeout(120_000);
  await page.goto("/api-reference");
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  // Swagger UI resolves the whole document in the browser first: seconds on a busy machine.
  await expect(page.getByRole("heading", { name: /Contract service/ })).toBeVisible({ timeout: 30_000 });
  const create = page.locator("#operations-Contracts-createContract");
  const toggle = create.getByRole("button", { name: /POST.*\/v1.*\/contracts.*\/create.*Create a contract/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  // Opening an operation gives it an address of its own.
  await expect(page).toHaveURL(/#\/Contracts\/createContract$/);

  const requestBody = create.locator(".opblock-section-request-body");
  await expect(requestBody.getByRole("tab", { name: "Schema", selected: true })).toBeVisible();
  await expect(requestBody.getByRole("tabpanel")).toContainText("CreateContractRequest");
  await expect(requestBody.getByRole("tabpanel")).toContainText("workspace_id");
  // The responses, with the error codes each status can carry (the 409's description lists them).
  const conflict = create.locator("tr.response[data-code='409']");
  await expect(conflict).toBeVisible();
  await expect(conflict).toContainText(/4090\d{3}/);
  await create.screenshot({ path: test.info().outputPath("api-reference-create-contract.png") });

  // Such an address opens its operation (loaded afresh: from the same page it would be a hash change).
  await page.goto("about:blank");
  await page.goto("/api-reference#/Participants/updateParticipant");
  const update = page.locator("#operations-Participants-updateParticipant");
  await expect(update.getByRole("button", { name: /PUT.*Update a participant/ })).toHaveAttribute("aria-expanded", "true", { timeout: 30_000 });
  await expect(update.locator(".opblock-section-request-body")).toContainText("UpdateParticipantRequest");
});

test("the API reference has no serious accessibility violations", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/api-reference");
  const toggle = page.locator("#operations-Contracts-createContract").getByRole("button", { name: /Create a contract/ });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  // Serious and critical ones: Swagger UI's markup still has a few moderate ones of its own (a second
  // main landmark, a skipped heading level) that only Swagger UI itself can fix.
  await noViolations(page, "api-reference", { fullPage: false, impacts: ["serious", "critical"] });
});
