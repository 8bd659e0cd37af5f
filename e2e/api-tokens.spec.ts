import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { appOrigin, EDITOR, signIn } from "./support/auth";

test("an admin creates a token, sees it once, uses it against /v1, and revokes it", async ({ page, request }) => {
  await signIn(page);
  await page.goto("/settings/api-tokens");
  await expect(page.getByRole("heading", { level: 1, name: "API tokens" })).toBeVisible();

  const name = `E2E token ${Date.now()}`;
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create token" }).click();

  const panel = page.getByRole("region", { name: /created: copy it now/ });
  await expect(panel).toBeVisible();
  await expect(panel).toBeFocused();
  const token = await panel.getByLabel("New API token").inputValue();
  expect(token).toMatch(/^cst_[A-Za-z0-9_-]{30,}$/);
  await expect(panel.getByText(`curl -H "x-service-api-token: ${token}" ${appOrigin()}/v1/workspaces`)).toBeVisible();

  // The token works like curl would use it (no cookies: the standalone request context).
  const withToken = await request.get("/v1/workspaces", { headers: { "x-service-api-token": token } });
  expect(withToken.status()).toBe(200);

  // Listed with its prefix, never again in full.
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText(token.slice(0, 10));
  await expect(row).toContainText("Active");
  await panel.getByRole("button", { name: "I have copied it" }).click();
  await expect(panel).toBeHidden();
  await page.reload();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toBeVisible();
  expect(await page.content()).not.toContain(token);

  // Revoke, with a confirm step that can be cancelled.
  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Revoke “${name}”?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  expect((await request.get("/v1/workspaces", { headers: { "x-service-api-token": token } })).status()).toBe(200);

  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  await dialog.getByRole("button", { name: "Revoke token" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("Revoked");
  await expect(page.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);

  expect((await request.get("/v1/workspaces", { headers: { "x-service-api-token": token } })).status()).toBe(401);
});

test("an invalid name is refused next to the field", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings/api-tokens");
  await page.getByLabel("Name").fill("   ");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText("Must not be empty.", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
});

test("someone who is not an admin sees 'Admins only' and cannot reach the token routes", async ({ page }) => {
  await signIn(page, EDITOR);
  await page.goto("/settings/api-tokens");
  await expect(page.getByRole("heading", { level: 1, name: "Admins only" })).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveCount(0);

  expect((await page.request.get("/api/tokens")).status()).toBe(403);
  const create = await page.request.post("/api/tokens", { data: { name: "sneaky" }, headers: { origin: appOrigin() } });
  expect(create.status()).toBe(403);
  expect((await create.json()).error_code).toBe(4030002);
});

test("token routes answer only to an admin's session, and changes only from the app's own pages", async ({ page, request }) => {
  // No session: 401, also with a valid API token (token management is never reachable with one).
  const seedToken = { "x-service-api-token": "e2e-api-token-0123456789abcdef" };
  expect((await request.get("/api/tokens", { headers: seedToken })).status()).toBe(401);
  expect((await request.post("/api/tokens", { data: { name: "x" }, headers: { ...seedToken, origin: appOrigin() } })).status()).toBe(401);

  await signIn(page);
  const list = await page.request.get("/api/tokens");
  expect(list.status()).toBe(200);
  const { data } = (await list.json()) as { data: { id: number; name: string; revoked_time: string | null }[] };
  const demo = data.find((t) => t.name === "Demo token")!;
  expect(demo).toBeDefined();

  // Cross-site or Origin-less changes with the admin's cookie: 403, nothing changes.
  const crossSite: Record<string, string>[] = [{ origin: "http://evil.example" }, {}];
  for (const headers of crossSite) {
    const create = await page.request.post("/api/tokens", { data: { name: "csrf" }, headers });
    expect(create.status()).toBe(403);
    expect((await create.json()).error_code).toBe(4030003);
    expect((await page.request.delete(`/api/tokens/${demo.id}`, { headers })).status()).toBe(403);
  }
  const after = (await (await page.request.get("/api/tokens")).json()) as { data: typeof data };
  expect(after.data.find((t) => t.id === demo.id)?.revoked_time).toBeNull();
  expect(after.data.some((t) => t.name === "csrf")).toBe(false);
});

test("a cross-site form post cannot create a token", async ({ page }) => {
  await signIn(page);
  // A page on another origin that auto-submits a form to the app, as an attacker's site would.
  await page.route("http://evil.example/", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<form method="post" action="${appOrigin()}/api/tokens" enctype="text/plain">
               <input name='{"name":"csrf","x":"' value='"}'></form>
             <script>document.forms[0].submit()</script>`,
    }),
  );
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url() === `${appOrigin()}/api/tokens`),
    page.goto("http://evil.example/"),
  ]);
  expect(response.status()).toBe(403);
  const list = (await (await page.request.get("/api/tokens")).json()) as { data: { name: string }[] };
  expect(list.data.some((t) => t.name === "csrf")).toBe(false);
});

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`);
}

test("the tokens page, its new-token panel and its confirm dialog have no serious accessibility problems", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings/api-tokens");
  await expect(page.getByRole("table")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel("Name").fill(`Axe ${Date.now()}`);
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByLabel("New API token")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole("button", { name: /^Revoke / }).first().click();
  await expect(page.getByRole("dialog")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
});

test("the admins-only page has no serious accessibility problems", async ({ page }) => {
  await signIn(page, EDITOR);
  await page.goto("/settings/api-tokens");
  await expect(page.getByRole("heading", { name: "Admins only" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
