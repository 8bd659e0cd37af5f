import { expect, test } from "@playwright/test";
import { startWebhookReceiver } from "../test/helpers/webhook-receiver";
import { EDITOR, signIn } from "./support/auth";

const API_TOKEN = "e2e-api-token-0123456789abcdef";

test("an admin adds a webhook, copies its secret once, sees its signed deliveries, sends one again, pauses, resumes and deletes it", async ({ page, request }) => {
  const receiver = await startWebhookReceiver();
  try {
    await signIn(page);
    await page.goto("/settings/webhooks");
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();

    // A refused URL is explained next to the field, in one sentence, and the field has the focus.
    await page.getByLabel("Callback URL").fill("ftp://example.com/");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect(page.locator("#webhook-url-error")).toHaveText("Must be an http:// or https:// URL.");
    await expect(page.getByLabel("Callback URL")).toBeFocused();

    const description = `E2E hook ${Date.now()}`;
    await page.getByLabel("Callback URL").fill(receiver.url("/e2e"));
    await page.getByLabel(/Description/).fill(description);
    await page.getByRole("button", { name: "Add webhook" }).click();
    const panel = page.getByRole("region", { name: /copy its signing secret now/ });
    await expect(panel).toBeFocused();
    const secret = await panel.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets.set("/e2e", secret);
    await panel.getByRole("button", { name: "I have copied it" }).click();
    await expect(panel).toBeHidden();
    await page.reload();
    expect(await page.content()).not.toContain(secret);

    const item = page.getByRole("listitem", { name: `Webhook ${description}` });
    await expect(item).toContainText("Active");

    // A change through the API becomes a signed delivery, listed with its status code.
    const workspaces = await request.get("/v1/workspaces", { headers: { "x-service-api-token": API_TOKEN } });
    const wsId = (await workspaces.json()).data[0].id;
    const templates = await request.get(`/v1/templates?workspace_id=${wsId}`, { headers: { "x-service-api-token": API_TOKEN } });
    const templateId = (await templates.json()).data[0].id;
    const created = await request.post("/v1/contracts/create", { headers: { "x-service-api-token": API_TOKEN }, data: { workspace_id: wsId, template_id: templateId, name: "Hooked in the browser" } });
    expect(created.status()).toBe(200);
    await receiver.waitFor((all) => all.some((r) => r.body.type === "contract.create"));
    expect(receiver.received.every((r) => r.verified)).toBe(true);

    await item.getByRole("button", { name: /Show deliveries/ }).click();
    const table = item.getByRole("table");
    const row = table.getByRole("row", { name: /contract\.create/ }).first();
    await expect(row).toContainText("succeeded");
    await expect(row).toContainText("204");
    const eventId = receiver.received.find((r) => r.body.type === "contract.create")!.id;

    // Send again: the same event id arrives once more.
    await row.getByRole("button", { name: /Send again/ }).click();
    await receiver.waitFor((all) => all.filter((r) => r.id === eventId).length === 2);

    // Pause and resume.
    await item.getByRole("button", { name: /^Pause/ }).click();
    await expect(item).toContainText("Paused");
    await expect(item).toContainText("Paused by an administrator.");
    await item.getByRole("button", { name: /^Resume/ }).click();
    await expect(item).toContainText("Active");

    // Delete, with a confirmation that can be cancelled.
    await item.getByRole("button", { name: /^Delete/ }).click();
    const dialog = page.getByRole("dialog", { name: `Delete the webhook “${description}”?` });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(item).toBeVisible();
    await item.getByRole("button", { name: /^Delete/ }).click();
    await dialog.getByRole("button", { name: "Delete webhook" }).click();
    await expect(item).toBeHidden();
  } finally {
    await receiver.stop();
  }
});

test("an editor is told the page is for admins", async ({ page }) => {
  await signIn(page, EDITOR);
  await page.goto("/settings/webhooks");
  await expect(page.getByRole("heading", { name: "Admins only" })).toBeVisible();
});
