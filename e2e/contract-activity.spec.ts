import { expect, test, type Page } from "@playwright/test";
import type { TContract, TContractList, TDataFieldList, TTemplateList, TWorkspaceList } from "@/lib/schemas";
import { allViolations, failOnConsoleErrors, screenshot, unique } from "./support/page-checks";
import { ADMIN, appOrigin, EDITOR, signIn } from "./support/auth";
import { createPrismaClient } from "@/lib/db/pool";
import { createTemplate } from "@/lib/db/seed/factories";
import { E2E_SOCKET_DIR } from "@/playwright.config";

// Issue 13 on the pages: the contract's Activity timeline, deleting a contract, and the list's name search.

failOnConsoleErrors();

/** A draft in Sales, made through the API as the signed-in user: a company with one participant. */
async function createDraft(page: Page, name = `Activity ${unique()}`) {
  const workspaces = (await (await page.request.get("/v1/workspaces")).json()) as TWorkspaceList;
  const sales = workspaces.data.find((w) => w.name === "Sales")!;
  const templates = (await (await page.request.get(`/v1/templates?workspace_id=${sales.id}`)).json()) as TTemplateList;
  const employee = `Elin Korhonen ${unique()}`;
  const res = await page.request.post("/v1/contracts/create", {
    headers: { origin: appOrigin() },
    data: {
      workspace_id: sales.id,
      template_id: templates.data[0]!.id,
      name,
      parties: [{ type: "company", name: "Copenhagen Foods", participants: [{ name: employee, email: "elin@example.org" }] }],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { contract: (await res.json()) as TContract, employee };
}

const activity = (page: Page) => page.getByRole("list", { name: "Activity, newest first" });
const contractStatus = async (page: Page, id: number) => (await page.request.get(`/v1/contracts/${id}`)).status();

test("an inline edit shows in the Activity timeline: who, what, from → to, when", async ({ page }) => {
  // Two saves, a reload and an axe scan of a long page: on a busy machine this nears the default 60 s.
  test.setTimeout(120_000);
  await signIn(page, ADMIN);
  const { contract, employee } = await createDraft(page);
  await page.goto(`/contracts/${contract.id}`);
  const timeline = activity(page);
  await expect(timeline.getByRole("listitem")).toHaveCount(1);
  await expect(timeline.getByRole("listitem").first()).toContainText(`${ADMIN.name} created the contract`);

  const card = page.getByRole("article", { name: employee }).first();
  await card.getByRole("button", { name: /, edit Title$/ }).click();
  await card.getByRole("textbox", { name: "Title" }).fill("Head of Sales");
  await page.keyboard.press("Enter");
  await expect(card.getByRole("button", { name: /, edit Title$/ })).toContainText("Head of Sales");

  // Without a reload: the save refreshes the timeline.
  const newest = timeline.getByRole("listitem").first();
  await expect(newest).toContainText(`${ADMIN.name} changed participant ${employee}`);
  // Who and what each isolated, so a right-to-left name cannot reverse the time that follows it.
  await expect(newest.locator("p > bdi")).toHaveText([`changed participant ${employee}`]);
  await expect(newest.getByRole("listitem")).toHaveText("Title: empty → to Head of Sales");
  await expect(newest).toContainText("in the web app");
  const time = newest.locator("time");
  await expect(time).toHaveText(/now|second|minute/);
  await expect(time).toHaveAttribute("title", /\d/);
  await expect(timeline.getByRole("listitem").filter({ hasText: "created the contract" })).toHaveCount(1);

  // A second change on another field, from a value to a value.
  await card.getByRole("button", { name: /, edit Title$/ }).click();
  await card.getByRole("textbox", { name: "Title" }).fill("CFO");
  await page.keyboard.press("Enter");
  await expect(timeline.getByRole("listitem").first().getByRole("listitem")).toHaveText("Title: Head of Sales → to CFO");

  await page.reload();
  await expect(activity(page).getByRole("listitem").first()).toContainText(`changed participant ${employee}`);
  expect(await allViolations(page)).toEqual([]);
  await screenshot(page, "contract-activity");
});

/**
 * A template in `workspaceId` with `count` data fields, "Clause 1" to "Clause {count}" (custom ids
 * `clause_1` …), made by the seed's own template factory on the app's embedded database: no endpoint
 * makes templates (the demo's have a handful of fields); contracts are made from it through the API.
 */
async function createTemplateWithFields(workspaceId: number, count: number): Promise<number> {
  const prisma = createPrismaClient(`postgresql://postgres@localhost/postgres?host=${encodeURIComponent(E2E_SOCKET_DIR)}`, 1);
  try {
    const dataFields = Array.from({ length: count }, (_, i) => ({ name: `Clause ${i + 1}`, customId: `clause_${i + 1}` }));
    return (await createTemplate(prisma, { workspaceIds: [workspaceId], dataFields })).id;
  } finally {
    await prisma.$disconnect();
  }
}

test("the Activity names a data field beyond the first page of 100: an event about field 150 of 150", async ({ page }) => {
  await signIn(page, ADMIN);
  const workspaces = (await (await page.request.get("/v1/workspaces")).json()) as TWorkspaceList;
  const sales = workspaces.data.find((w) => w.name === "Sales")!;
  const templateId = await createTemplateWithFields(sales.id, 150);
  const created = await page.request.post("/v1/contracts/create", {
    headers: { origin: appOrigin() },
    data: {
      workspace_id: sales.id,
      template_id: templateId,
      name: `Many fields ${unique()}`,
      parties: [{ type: "company", name: "Copenhagen Foods", participants: [{ name: "Elin Korhonen", email: "elin@example.org" }] }],
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const contract = (await created.json()) as TContract;
  // The API's largest page holds the first 100 of them: the 150th is on the second page.
  const first = (await (await page.request.get(`/v1/contracts/${contract.id}/data_fields?limit=100`)).json()) as TDataFieldList;
  expect([first.count, first.data.length, first.data.some((field) => field.name === "Clause 150")]).toEqual([150, 100, false]);

  const saved = await page.request.put(`/v1/contracts/${contract.id}/data_fields/c::clause_150`, { headers: { origin: appOrigin() }, data: { value: "Oslo" } });
  expect(saved.status(), await saved.text()).toBe(200);

  await page.goto(`/contracts/${contract.id}`);
  const newest = activity(page).getByRole("listitem").first();
  await expect(newest).toContainText(`${ADMIN.name} changed data field Clause 150`);
  await expect(newest.locator("p > bdi")).toHaveText(["changed data field Clause 150"]);
  await expect(newest.getByRole("listitem")).toHaveText("Value: empty → to Oslo");
});

test("deleting a draft: the dialog's Cancel and Escape keep it, Delete removes it and the list says so", async ({ page }) => {
  await signIn(page, EDITOR);
  const name = `Delete via dialog ${unique()}`;
  const { contract } = await createDraft(page, name);
  await page.goto(`/contracts/${contract.id}`);
  const open = page.getByRole("button", { name: "Delete", exact: true });
  const dialog = page.getByRole("dialog", { name: "Delete this contract?" });

  await open.click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(name);
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  expect(await allViolations(page)).toEqual([]);
  await screenshot(page, "delete-dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect(await contractStatus(page, contract.id)).toBe(200);

  // Cancel, then the button again at once: the dialog's close event comes a task after it closed,
  // and must not close the dialog opened since. The button is clicked the moment the dialog has
  // closed (a mutation observer runs before the event's task), as a quick Enter did in a CI run.
  await open.click();
  await expect(dialog).toBeVisible();
  const reopened = await page.evaluate(async () => {
    const element = [...document.querySelectorAll("dialog")].find((d) => d.textContent?.includes("Delete this contract?"))!;
    const opener = element.previousElementSibling as HTMLButtonElement;
    const cancel = [...element.querySelectorAll("button")].find((b) => b.textContent === "Cancel")!;
    const closed = new Promise((resolve) => element.addEventListener("close", resolve, { once: true }));
    const observer = new MutationObserver(() => {
      if (element.open) return;
      observer.disconnect();
      opener.click();
    });
    observer.observe(element, { attributes: true, attributeFilter: ["open"] });
    cancel.click();
    await closed;
    // Time for React to act on it (it would close the dialog within a task or two).
    await new Promise((resolve) => setTimeout(resolve, 200));
    return element.open;
  });
  expect(reopened).toBe(true);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await open.click();
  await dialog.getByRole("button", { name: "Delete contract" }).click();
  await expect(page).toHaveURL(/\/contracts$/);
  await expect(page.getByRole("status").filter({ hasText: `Contract “${name}” was deleted.` })).toBeVisible();
  expect(await contractStatus(page, contract.id)).toBe(404);

  await page.goto(`/contracts?q=${encodeURIComponent(name)}`);
  await expect(page.getByText("No contracts match these filters")).toBeVisible();
  // The message was for one visit only.
  await expect(page.getByText("was deleted.")).toHaveCount(0);
});

test("a refused deletion is explained in the dialog, and no Delete is offered where the API would refuse it", async ({ page }) => {
  await signIn(page, EDITOR);
  const { contract } = await createDraft(page);
  await page.goto(`/contracts/${contract.id}`);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  // Someone else deletes it meanwhile.
  expect((await page.request.delete(`/v1/contracts/${contract.id}`, { headers: { origin: appOrigin() } })).status()).toBe(204);
  const dialog = page.getByRole("dialog", { name: "Delete this contract?" });
  await dialog.getByRole("button", { name: "Delete contract" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(/no longer exists/);
  await expect(dialog.getByRole("button", { name: "Delete contract" })).toBeFocused();
  await expect(page).toHaveURL(new RegExp(`/contracts/${contract.id}$`));
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // An editor may delete only drafts: a signed contract of theirs has no Delete button.
  const signed = (await (await page.request.get("/v1/contracts?state=signed&limit=1")).json()) as TContractList;
  await page.goto(`/contracts/${signed.data[0]!.id}`);
  await expect(page.getByRole("heading", { level: 2, name: "Activity" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Delete", exact: true })).toHaveCount(0);
});

test("the search says where each contract matched, the words marked, isolated from the text around them", async ({ page }) => {
  await signIn(page, ADMIN);
  const { employee } = await createDraft(page);
  await page.goto(`/contracts?q=${encodeURIComponent(employee)}`);
  const rows = page.getByRole("region", { name: "Contracts" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  const where = rows.first().getByRole("list", { name: "Where it matched" });
  await expect(where.getByRole("listitem")).toHaveText([`Participant: ${employee}`, "E-mail: elin@example.org"]);
  // Inside `<bdi>`: a direction override in a contract's text (U+202E) cannot reverse what follows it.
  await expect(where.locator("bdi mark")).toHaveText([employee, "elin"]);
});

test("the search filters the list, goes back to the first page and survives a reload", async ({ page }) => {
  await signIn(page, ADMIN);
  const tag = `Needle${unique()}`;
  const { contract } = await createDraft(page, `${tag} supply deal`);
  await createDraft(page, `${tag.toLowerCase()} other deal`);
  await page.goto("/contracts?offset=25&state=draft");
  const search = page.getByRole("searchbox", { name: "Search" });
  await search.fill(tag.toUpperCase());
  await expect(page).toHaveURL(new RegExp(`[?&]q=${tag.toUpperCase()}(&|$)`));
  await expect(page).not.toHaveURL(/offset=/);
  await expect(page).toHaveURL(/state=draft/);
  const rows = page.getByRole("region", { name: "Contracts" }).locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(page.getByText(/^Showing 1–2 of 2 contracts$/)).toBeVisible();

  await search.fill(`${tag} supply`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(contract.name);
  // Found by its name: the words are marked in the name's link itself.
  await expect(rows.first().getByRole("link", { name: contract.name }).locator("mark")).toHaveText([`${tag} supply`]);

  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue(`${tag} supply`);
  await expect(rows).toHaveCount(1);
  expect(await allViolations(page)).toEqual([]);

  await page.getByRole("link", { name: "Clear filters" }).first().click();
  await expect(page).toHaveURL(/\/contracts$/);
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("");
  await expect(rows).toHaveCount(25);
});
