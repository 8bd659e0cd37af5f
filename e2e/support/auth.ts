import { expect, test, type Browser, type Page } from "@playwright/test";

/** Seeded by the demo data (playwright.config.ts sets SEED_ADMIN_PASSWORD); every demo user shares it. */
export const PASSWORD = "e2e-admin-password";
export const ADMIN = { email: "admin@example.com", password: PASSWORD, name: "Ada Admin" } as const;
export const EDITOR = { email: "editor@example.com", password: PASSWORD, name: "Eddie Editor" } as const;

type Credentials = { email: string; password: string };
type Cookies = Awaited<ReturnType<ReturnType<Page["context"]>["cookies"]>>;

// One sign-in per user per worker, reused by every test: sign-ins are rate limited per client IP,
// and tests of other pages should not depend on the sign-in form. A test that signs out must use
// its own session (`fresh: true`), or it would end the shared one.
const sessions = new Map<string, Cookies>();

/** Puts a signed-in session of `who` into the page's browser context. */
export async function signIn(page: Page, who: Credentials = ADMIN, { fresh = false } = {}): Promise<void> {
  const cached = fresh ? undefined : sessions.get(who.email);
  if (cached) {
    await page.context().addCookies(cached);
    return;
  }
  const origin = appOrigin();
  const res = await page.request.post("/api/auth/sign-in/email", {
    data: { email: who.email, password: who.password },
    headers: { origin },
  });
  expect(res.status(), await res.text()).toBe(200);
  const cookies = (await page.context().cookies()).filter((c) => c.name.endsWith("session_token"));
  expect(cookies).toHaveLength(1);
  if (!fresh) sessions.set(who.email, cookies);
}

/** The origin the app is tested on (playwright.config.ts `use.baseURL`). */
export function appOrigin(): string {
  return new URL(test.info().project.use.baseURL ?? "http://127.0.0.1").origin;
}

/** A page in a new browser context on an app of the test's own (`baseUrl`), signed in as `who` (the admin by default). */
export async function signedInPageOn(browser: Browser, baseUrl: string, who: Credentials = ADMIN): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: baseUrl })).newPage();
  const res = await page.request.post("/api/auth/sign-in/email", { data: { email: who.email, password: who.password }, headers: { origin: baseUrl } });
  expect(res.status(), await res.text()).toBe(200);
  return page;
}
