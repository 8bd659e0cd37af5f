import { expect, test } from "@playwright/test";
import { ADMIN, appOrigin, signIn } from "./support/auth";

// Issue 10, item 2: `next` on the sign-in page must never take the browser to another site. The
// reported case, `/.//evil.example/phish`, normalised to `//evil.example/phish` and Chromium went
// there after signing in. Each of these is tried in Chromium itself, whose URL parser decides.
const HOSTILE = ["/.//evil.example/phish", "/x/..//evil.example/phish", "//evil.example/phish", "/\\evil.example/phish", "/%2e//evil.example/phish"];

for (const next of HOSTILE) {
  test(`signing in with next=${next} stays on this site`, async ({ browser }) => {
    // Its own client address (the app trusts the test's loopback proxy), so these sign-ins do not
    // spend the other tests' per-address limit.
    const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": `203.0.113.${Math.floor(Math.random() * 250) + 1}` } });
    const page = await context.newPage();
    const offSite: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).origin !== appOrigin()) offSite.push(r.url());
    });
    await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await page.getByLabel("E-mail").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${appOrigin()}/dashboard`);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard", exact: true })).toBeVisible();
    expect(offSite).toEqual([]);
    await context.close();
  });
}

test("signed in already, the sign-in page redirects only within this site", async ({ page }) => {
  await signIn(page);
  for (const next of HOSTILE) {
    const res = await page.request.get(`/sign-in?next=${encodeURIComponent(next)}`, { maxRedirects: 0 });
    expect({ next, status: res.status(), location: res.headers().location }).toEqual({ next, status: 307, location: "/dashboard" });
  }
  await page.goto(`/sign-in?next=${encodeURIComponent(HOSTILE[0]!)}`);
  await expect(page).toHaveURL(`${appOrigin()}/dashboard`);
});
