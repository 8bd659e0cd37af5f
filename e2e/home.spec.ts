import { expect, test } from "@playwright/test";
import { signIn } from "./support/auth";

test("opening the site signed out lands on the sign-in page", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole("heading", { level: 1, name: "Contracts admin" })).toBeVisible();
  await expect(page.getByLabel("E-mail")).toBeVisible();
});

test("opening the site signed in goes to the dashboard", async ({ page }) => {
  await signIn(page);
  await page.goto("/");
  await expect(page).toHaveURL(/\/dashboard$/);
});
