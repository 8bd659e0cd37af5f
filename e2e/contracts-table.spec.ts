import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { EDITOR, signIn } from "./support/auth";

// The contracts table against the demo data (~200 contracts in Sales, Procurement and Legal Norway).
// Other tests may create contracts meanwhile, so expected totals are asked of the API, not hard-coded.

type TList = { count: number; data: { id: number; name: string; workspace_id: number; state: string }[] };
type TWorkspaces = { data: { id: number; name: string }[] };

/** What `/v1/contracts` answers the signed-in user for `query`: the source of truth the page must show. */
async function apiContracts(page: Page, query: string): Promise<TList> {
  const res = await page.request.get(`/v1/contracts?${query}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as TList;
}

async function workspaceId(page: Page, name: string): Promise<number> {
  const { data } = (await (await page.request.get("/v1/workspaces")).json()) as TWorkspaces;
  const workspace = data.find((w) => w.name === name);
  expect(workspace, `workspace ${name}`).toBeDefined();
  return workspace!.id;
}

const table = (page: Page) => page.getByRole("region", { name: "Contracts" });
const rows = (page: Page) => table(page).locator("tbody tr");
const firstName = (page: Page) => table(page).getByRole("rowheader").first();
const summary = (page: Page) => page.getByText(/^Showing /);
const number = (n: number) => new Intl.NumberFormat("en-US").format(n);

async function openContracts(page: Page, path = "/contracts") {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: "Contracts" })).toBeVisible();
  await expect(summary(page).or(page.getByText("No contracts match these filters"))).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("pages through the contracts with real links, the total shown", async ({ page }) => {
  await openContracts(page);
  const { count, data } = await apiContracts(page, "sort=-updated_time&limit=25&offset=25");
  await expect(summary(page)).toHaveText(`Showing 1–25 of ${number(count)} contracts`);
  await expect(rows(page)).toHaveCount(25);
  const pagination = page.getByRole("navigation", { name: "Pagination" });
  await expect(pagination.getByRole("link", { name: "Previous" })).toHaveAttribute("aria-disabled", "true");
  await expect(pagination.getByRole("link", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
  const firstOnPage1 = await firstName(page).textContent();

  await pagination.getByRole("link", { name: "Page 2" }).click();
  await expect(page).toHaveURL(/[?&]offset=25(&|$)/);
  await expect(summary(page)).toHaveText(`Showing 26–50 of ${number(count)} contracts`);
  await expect(firstName(page)).toHaveText(data[0]!.name);
  expect(data[0]!.name).not.toBe(firstOnPage1);
  await expect(pagination.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");

  await pagination.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/[?&]offset=50(&|$)/);
  await expect(summary(page)).toHaveText(`Showing 51–75 of ${number(count)} contracts`);
  await pagination.getByRole("link", { name: "Previous" }).click();
  await expect(page).toHaveURL(/[?&]offset=25(&|$)/);

  // The last page: Next is disabled.
  const lastPage = Math.ceil(count / 25);
  await pagination.getByRole("link", { name: `Page ${lastPage}` }).click();
  await expect(summary(page)).toHaveText(`Showing ${number((lastPage - 1) * 25 + 1)}–${number(count)} of ${number(count)} contracts`);
  await expect(pagination.getByRole("link", { name: "Next" })).toHaveAttribute("aria-disabled", "true");
});

test("changing the page size asks the API for that many rows and keeps it in the URL", async ({ page }) => {
  await openContracts(page);
  const { count } = await apiContracts(page, "limit=1");
  await page.getByLabel("Rows per page").selectOption("10");
  await expect(page).toHaveURL(/[?&]limit=10(&|$)/);
  await expect(rows(page)).toHaveCount(10);
  await expect(summary(page)).toHaveText(`Showing 1–10 of ${number(count)} contracts`);
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Page 3" }).click();
  await expect(page).toHaveURL(/limit=10&offset=20|offset=20.*limit=10/);
  await expect(summary(page)).toHaveText(`Showing 21–30 of ${number(count)} contracts`);

  // A larger size keeps the first row in view: rows 21–30 are on the first page of 50.
  await page.getByLabel("Rows per page").selectOption("50");
  await expect(summary(page)).toHaveText(`Showing 1–50 of ${number(count)} contracts`);
  await expect(rows(page)).toHaveCount(50);
  await expect(page).not.toHaveURL(/offset=/);
});

test("filters by workspace and state, in the URL and in the results", async ({ page }) => {
  await openContracts(page);
  const procurement = await workspaceId(page, "Procurement");

  await page.getByLabel("Workspace", { exact: true }).selectOption({ label: "Procurement" });
  await expect(page).toHaveURL(new RegExp(`[?&]workspace_id=${procurement}(&|$)`));
  const inWorkspace = await apiContracts(page, `workspace_id=${procurement}&limit=1`);
  await expect(summary(page)).toHaveText(`Showing 1–25 of ${number(inWorkspace.count)} contracts`);
  const workspaceCells = table(page).locator("tbody tr td:nth-child(2)");
  await expect(workspaceCells.first()).toHaveText("Procurement");
  expect(new Set(await workspaceCells.allTextContents())).toEqual(new Set(["Procurement"]));

  await page.getByLabel("State", { exact: true }).selectOption({ label: "Signed" });
  await expect(page).toHaveURL(/[?&]state=signed(&|$)/);
  await expect(page).toHaveURL(new RegExp(`[?&]workspace_id=${procurement}(&|$)`));
  const signed = await apiContracts(page, `workspace_id=${procurement}&state=signed&limit=100`);
  expect(signed.count).toBeGreaterThan(0);
  await expect(summary(page)).toHaveText(`Showing 1–${Math.min(25, signed.count)} of ${signed.count} contracts`);
  expect(new Set(await table(page).locator("tbody tr td:nth-child(3)").allTextContents())).toEqual(new Set(["Signed"]));
  expect(new Set(await workspaceCells.allTextContents())).toEqual(new Set(["Procurement"]));

  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/contracts$/);
  await expect(page.getByLabel("Workspace", { exact: true })).toHaveValue("");
  await expect(page.getByLabel("State", { exact: true })).toHaveValue("");
});

test("sorts by name, ascending then descending, by clicking the header", async ({ page }) => {
  await openContracts(page);
  const header = table(page).getByRole("columnheader", { name: "Name" });
  await expect(header).toHaveAttribute("aria-sort", "none");
  await expect(table(page).getByRole("columnheader", { name: "Updated" })).toHaveAttribute("aria-sort", "descending");

  await header.getByRole("button", { name: "Name" }).click();
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  const ascending = await apiContracts(page, "sort=name&limit=25");
  await expect(table(page).getByRole("rowheader")).toHaveText(ascending.data.map((c) => c.name));

  await header.getByRole("button", { name: "Name" }).click();
  await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
  await expect(header).toHaveAttribute("aria-sort", "descending");
  const descending = await apiContracts(page, "sort=-name&limit=25");
  await expect(table(page).getByRole("rowheader")).toHaveText(descending.data.map((c) => c.name));
  // The sort buttons are reachable and usable from the keyboard.
  await header.getByRole("button", { name: "Name" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
});

test("the back button restores the previous view", async ({ page }) => {
  await openContracts(page);
  const { count } = await apiContracts(page, "limit=1");
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Page 2" }).click();
  await expect(summary(page)).toHaveText(`Showing 26–50 of ${number(count)} contracts`);
  const page2First = await firstName(page).textContent();

  await page.getByLabel("State", { exact: true }).selectOption({ label: "Draft" });
  await expect(page).toHaveURL(/[?&]state=draft(&|$)/);
  await expect(page).not.toHaveURL(/offset=/);
  await expect(page.getByLabel("State", { exact: true })).toHaveValue("draft");

  await page.goBack();
  await expect(page).toHaveURL(/[?&]offset=25(&|$)/);
  await expect(page).not.toHaveURL(/state=/);
  await expect(page.getByLabel("State", { exact: true })).toHaveValue("");
  await expect(summary(page)).toHaveText(`Showing 26–50 of ${number(count)} contracts`);
  await expect(firstName(page)).toHaveText(page2First!);

  await page.goBack();
  await expect(summary(page)).toHaveText(`Showing 1–25 of ${number(count)} contracts`);
  await page.goForward();
  await expect(summary(page)).toHaveText(`Showing 26–50 of ${number(count)} contracts`);
});

test("a bookmarked URL opens with its filters, sort and page applied", async ({ page }) => {
  const legal = await workspaceId(page, "Legal Norway");
  const query = `workspace_id=${legal}&state=pending&sort=-name&limit=10`;
  await openContracts(page, `/contracts?${query}`);
  const expected = await apiContracts(page, query);
  expect(expected.count).toBeGreaterThan(0);

  await expect(page.getByLabel("Workspace", { exact: true })).toHaveValue(String(legal));
  await expect(page.getByLabel("State", { exact: true })).toHaveValue("pending");
  await expect(page.getByLabel("Rows per page")).toHaveValue("10");
  await expect(table(page).getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "descending");
  await expect(summary(page)).toHaveText(`Showing 1–${Math.min(10, expected.count)} of ${expected.count} contracts`);
  await expect(table(page).getByRole("rowheader")).toHaveText(expected.data.map((c) => c.name));
});

test("invalid URL parameters fall back to the defaults", async ({ page }) => {
  await openContracts(page, "/contracts?limit=abc&offset=-5&sort=bogus&state=nope&workspace_id=0");
  const { count } = await apiContracts(page, "limit=1");
  await expect(summary(page)).toHaveText(`Showing 1–25 of ${number(count)} contracts`);
  await expect(page.getByLabel("State", { exact: true })).toHaveValue("");
  await expect(table(page).getByRole("columnheader", { name: "Updated" })).toHaveAttribute("aria-sort", "descending");

  // A valid offset past the last row: no rows, and a way back to the first page.
  await page.goto("/contracts?offset=19900");
  await expect(page.getByText(`This page is past the last of ${number(count)} contracts`)).toBeVisible();
  await page.getByRole("link", { name: "Go to the first page" }).click();
  await expect(summary(page)).toHaveText(`Showing 1–25 of ${number(count)} contracts`);
});

test("no match shows the empty state with a way back", async ({ page }) => {
  // A workspace nobody can see: a well-formed filter that matches nothing.
  await openContracts(page, "/contracts?workspace_id=999999");
  await expect(page.getByText("No contracts match these filters")).toBeVisible();
  await table(page).getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/contracts$/);
  await expect(summary(page)).toBeVisible();
});

test("shows a skeleton while loading and a retry when loading fails", async ({ page }) => {
  let fail = true;
  await page.route((url) => url.pathname === "/v1/contracts", async (route) => {
    if (!fail) return route.continue();
    await new Promise((resolve) => setTimeout(resolve, 300));
    return route.fulfill({
      status: 500,
      contentType: "application/json",
      body: JSON.stringify({ status: 500, title: "Internal Server Error", detail: "Something broke on our side.", error_code: 5000000 }),
    });
  });
  await page.goto("/contracts");
  await expect(page.locator("table[aria-busy=true]")).toBeVisible();
  const alert = page.getByRole("alert").filter({ hasText: "Could not load the contracts." });
  // The query client retries a 5xx twice before giving up.
  await expect(alert).toBeVisible({ timeout: 15_000 });
  await expect(alert).toContainText("Something broke on our side.");

  fail = false;
  await alert.getByRole("button", { name: "Retry" }).click();
  await expect(summary(page)).toBeVisible();
  await expect(rows(page)).toHaveCount(25);
});

test("an editor sees only their workspaces' contracts", async ({ page }) => {
  await openContracts(page);
  const adminCount = (await apiContracts(page, "limit=1")).count;
  await expect(summary(page)).toHaveText(`Showing 1–25 of ${number(adminCount)} contracts`);

  await page.context().clearCookies();
  await signIn(page, EDITOR);
  await openContracts(page);
  const editorCount = (await apiContracts(page, "limit=1")).count;
  expect(editorCount).toBeGreaterThan(0);
  expect(editorCount).toBeLessThan(adminCount);
  await expect(summary(page)).toHaveText(`Showing 1–25 of ${number(editorCount)} contracts`);

  // The workspace filter offers only the editor's workspaces (editor of Sales, viewer of Legal Norway).
  const workspace = page.getByLabel("Workspace", { exact: true });
  await expect(workspace.locator("option")).toHaveText(["All workspaces", "Sales", "Legal Norway"]);
  const names = new Set(await table(page).locator("tbody tr td:nth-child(2)").allTextContents());
  expect([...names].every((name) => name === "Sales" || name === "Legal Norway")).toBe(true);
});

test("each name links to its contract, and New contract to the wizard", async ({ page }) => {
  await openContracts(page);
  const { data } = await apiContracts(page, "sort=-updated_time&limit=1");
  await expect(firstName(page).getByRole("link")).toHaveAttribute("href", `/contracts/${data[0]!.id}`);
  await expect(page.getByRole("main").getByRole("link", { name: "New contract" })).toHaveAttribute("href", "/contracts/new");
});

test.describe("in a time zone west of UTC", () => {
  test.use({ timezoneId: "America/New_York" });

  test("the dashboard's “Renewed this month” list names the month's first day as the dashboard counts it, in UTC", async ({ page }) => {
    await openContracts(page, "/contracts?renewed_after=2026-12-01T00:00:00.000Z");
    const first = new Date("2026-12-01T00:00:00Z").toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
    await expect(page.getByText(`renewed since ${first}`)).toBeVisible();
  });
});

test("the contracts table has no accessibility violations", async ({ page }) => {
  await openContracts(page);
  await expect(rows(page)).toHaveCount(25);
  const path = test.info().outputPath("contracts.png");
  await page.screenshot({ path, fullPage: true });
  await test.info().attach("contracts", { path, contentType: "image/png" });
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);

  await openContracts(page, "/contracts?workspace_id=999999");
  await expect(page.getByText("No contracts match these filters")).toBeVisible();
  const empty = await new AxeBuilder({ page }).analyze();
  expect(empty.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
});
