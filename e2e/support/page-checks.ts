import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

/**
 * Fails every test of the file in which a page logs an error (React warnings, uncaught exceptions).
 * Refused requests a test provokes on purpose (400, 404, 409) are logged by the browser as
 * "Failed to load resource" and are expected.
 */
export function failOnConsoleErrors(): void {
  let consoleErrors: string[] = [];
  test.beforeEach(({ page }) => {
    consoleErrors = [];
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(error.message));
  });
  test.afterEach(() => {
    expect(consoleErrors).toEqual([]);
  });
}

export const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** A full-page screenshot, kept with the test's results. */
export async function screenshot(page: Page, name: string) {
  const path = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { path, contentType: "image/png" });
}

/** Every axe violation on the page, of any impact, as readable lines. */
export async function allViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((v) => `${v.impact ?? "?"} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}
