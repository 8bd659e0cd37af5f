import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { ADMIN, appOrigin, EDITOR, PASSWORD, signIn } from "./support/auth";

/** The sign-in form's message (Next's route announcer is an alert too). */
const formAlert = (page: Page) => page.locator("form").getByRole("alert");

async function submitSignIn(page: Page, email: string, password: string) {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("a page of the app sends a signed-out visitor to the sign-in page, and back after signing in", async ({ page }) => {
  await page.goto("/contracts?state=signed&limit=10");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcontracts%3Fstate%3Dsigned%26limit%3D10$/);
  await expect(page.getByRole("heading", { level: 1, name: "Contracts admin" })).toBeVisible();
  await submitSignIn(page, EDITOR.email, EDITOR.password);
  await expect(page).toHaveURL(/\/contracts\?state=signed&limit=10$/);
});

test("a wrong password shows a clear message and no session starts", async ({ page }) => {
  await page.goto("/sign-in");
  await submitSignIn(page, ADMIN.email, "not-the-password");
  await expect(formAlert(page)).toHaveText("Wrong e-mail or password.");
  await expect(page).toHaveURL(/\/sign-in$/);
  expect((await page.context().cookies()).filter((c) => c.name.endsWith("session_token"))).toEqual([]);
});

test("the sign-in page is keyboard-usable and has no serious accessibility problems", async ({ page }) => {
  await page.goto("/sign-in");
  await expect(page.getByLabel("E-mail")).toBeFocused();
  await page.keyboard.type(ADMIN.email);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password")).toBeFocused();
  await page.keyboard.type("wrong password");
  await page.keyboard.press("Enter");
  await expect(formAlert(page)).toHaveText("Wrong e-mail or password.");
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
});

test("the form checks its fields before sending anything", async ({ page }) => {
  await page.goto("/sign-in");
  let posted = false;
  page.on("request", (r) => (posted ||= r.url().includes("/api/auth/sign-in")));
  await submitSignIn(page, "not-an-email", "");
  await expect(page.getByText("Enter a valid e-mail address")).toBeVisible();
  await expect(page.getByText("Enter your password")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
  expect(posted).toBe(false);
});

test("signing in lands on the dashboard with an httpOnly, SameSite=Lax session cookie; signing out ends it", async ({ page }) => {
  await page.goto("/sign-in");
  await submitSignIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  const [cookie, ...others] = (await page.context().cookies()).filter((c) => c.name.endsWith("session_token"));
  expect(others).toEqual([]);
  expect(cookie).toMatchObject({ name: "contracts-admin.session_token", httpOnly: true, sameSite: "Lax", secure: false, path: "/" });

  // The app shell (on a page that exists whatever else is built yet).
  await page.goto("/settings/api-tokens");
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const name of ["Contracts", "New contract", "Template types", "Templates", "Workspaces", "Users", "API tokens", "API reference"]) {
    await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
  }
  await expect(nav.getByRole("link", { name: "API tokens" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText(ADMIN.name)).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  // The session is gone on the server too: the old cookie no longer opens the app.
  await page.context().addCookies([cookie!]);
  await page.goto("/settings/api-tokens");
  await expect(page).toHaveURL(/\/sign-in(\?|$)/);
});

test("after signing in, the visitor returns to the page they asked for, never to another site", async ({ page }) => {
  await page.goto("/sign-in?next=%2Fsettings%2Fapi-tokens");
  await submitSignIn(page, EDITOR.email, EDITOR.password);
  await expect(page).toHaveURL(/\/settings\/api-tokens$/);

  await page.context().clearCookies();
  await page.goto("/sign-in?next=%2F%2Fevil.example%2Fphish");
  await submitSignIn(page, EDITOR.email, EDITOR.password);
  await expect(page).toHaveURL(`${appOrigin()}/dashboard`);
});

test("the session token never reaches page scripts", async ({ page }) => {
  const res = await page.request.post("/api/auth/sign-in/email", {
    data: { email: EDITOR.email, password: EDITOR.password },
    headers: { origin: appOrigin() },
  });
  expect(res.status()).toBe(200);
  const cookie = (await page.context().cookies()).find((c) => c.name.endsWith("session_token"))!;
  const token = decodeURIComponent(cookie.value).split(".")[0]!;
  expect(token.length).toBeGreaterThan(16);
  const body = await res.text();
  expect(JSON.parse(body).user.email).toBe(EDITOR.email);
  expect(body).not.toContain(token);

  await page.goto("/settings/api-tokens");
  const session = await page.evaluate(() => fetch("/api/auth/get-session").then((r) => r.text()));
  expect(session).toContain(EDITOR.email);
  expect(session).not.toContain(token);
  expect(await page.evaluate(() => document.cookie)).not.toContain("session_token");
});

test("a sign-out posted from another site is refused", async ({ page }) => {
  await signIn(page, EDITOR);
  // With a session cookie present, better-auth requires a trusted Origin.
  const res = await page.request.post("/api/auth/sign-out", { headers: { origin: "http://evil.example" }, data: {} });
  expect(res.status()).toBe(403);
  await page.goto("/settings/api-tokens");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/api-tokens$/);
});

test("repeated failed sign-ins for one account are rate limited", async ({ browser }) => {
  // Its own client address, so the attempts here do not count against the other tests' sign-ins.
  const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": `203.0.113.${Math.floor(Math.random() * 250) + 1}` } });
  const page = await context.newPage();
  const email = `locked-${Date.now()}@example.com`;
  await page.goto("/sign-in");
  for (let i = 0; i < 5; i++) {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/auth/sign-in/email")),
      submitSignIn(page, email, `wrong-${i}`),
    ]);
    expect(response.status()).toBe(401);
    await expect(formAlert(page)).toHaveText("Wrong e-mail or password.");
  }
  await submitSignIn(page, email, PASSWORD);
  await expect(formAlert(page)).toHaveText(/^Too many attempts, try again in \d+ seconds\.$/);
  await context.close();
});
