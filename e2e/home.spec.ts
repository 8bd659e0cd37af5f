import { expect, test } from "@playwright/test";

test("the home page of the production build opens", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Contracts admin" })).toBeVisible();
});
