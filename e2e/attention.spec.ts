import { expect, test, type Browser, type Page } from "@playwright/test";
import { startServer, type RunningServer } from "@/test/helpers/server";
import { startTestSmtpServer, type TTestSmtpServer } from "@/test/helpers/smtp";
import { PASSWORD, signedInPageOn } from "./support/auth";
import { allViolations, unique } from "./support/page-checks";

// Issue 37 in the browser: a refused invitation on the dashboard, corrected in one step on the
// contract page; the signing page's plain messages. Its own app and an SMTP server that refuses
// every address starting with "bounce.", as a mail server refuses a mailbox it does not know.

let smtp: TTestSmtpServer;
let app: RunningServer;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  smtp = await startTestSmtpServer({ refuseRecipient: (to) => (to.startsWith("bounce.") ? { code: 550, message: "5.1.1 No such mailbox here" } : undefined) });
  app = await startServer({
    env: { SMTP_URL: smtp.url, MAIL_FROM: "Contracts <contracts@example.test>", SEED_ADMIN_PASSWORD: PASSWORD, TRUSTED_PROXIES: "loopback", MAIL_POLL_INTERVAL_MS: "200" },
  });
});

test.afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

const staffPage = (browser: Browser): Promise<Page> => signedInPageOn(browser, app.baseUrl);

/** The wizard with one company counterparty and one signatory, then publish; ends on the contract's page. */
async function createAndPublish(page: Page, { name, template, person, email }: { name: string; template: string; person: string; email: string }) {
  await page.goto("/contracts/new");
  await page.getByLabel("Contract name").fill(name);
  await page.getByLabel("Workspace").selectOption({ label: template === "Mutual NDA" ? "Sales" : "Procurement" });
  await page.getByLabel("Template").selectOption({ label: template });
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Add company" }).click();
  const company = page.getByRole("group", { name: "Counterparty 1: company" });
  await company.getByLabel("Company name").fill("Fjord Testing AS");
  const first = company.getByRole("group", { name: "Participant 1", exact: true });
  await first.getByRole("textbox", { name: /^Name/ }).fill(person);
  await first.getByLabel("E-mail").fill(email);
  await first.getByLabel("Signatory").check();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Create contract" }).click();
  await expect(page).toHaveURL(/\/contracts\/\d+$/);
  const panel = page.getByRole("region", { name: "Publish" });
  // A template's text may need data field values before publishing: fill each one the checklist names.
  await expect(panel.getByText("Ready to publish.").or(panel.getByRole("list", { name: "What is missing" }))).toBeVisible();
  for (let round = 0; round < 10 && (await panel.getByRole("list", { name: "What is missing" }).count()) > 0; round += 1) {
    const missing = await panel.getByRole("list", { name: "What is missing" }).getByRole("listitem").allTextContents();
    const field = missing.map((text) => /needs a value for the data field (.+)\.$/.exec(text)?.[1]).find(Boolean);
    if (!field) break;
    const row = page.getByRole("row", { name: new RegExp(field) });
    await row.getByRole("button", { name: new RegExp(`, edit value of ${field}$`) }).click();
    await row.getByRole("textbox", { name: `Value of ${field}` }).fill("2026-12-01");
    await row.getByRole("textbox", { name: `Value of ${field}` }).press("Enter");
    await expect(panel.getByText(`data field ${field}.`)).toHaveCount(0);
  }
  await expect(panel.getByText("Ready to publish.")).toBeVisible();
  await panel.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Pending", { exact: true }).first()).toBeVisible();
}

async function mailTo(to: string, subject: RegExp, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = smtp.received.find((m) => m.envelopeTo.includes(to) && subject.test(m.parsed.subject ?? ""));
    if (found) return found.parsed.text ?? "";
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("a bounced address appears on the dashboard with the server's reason; correcting it on the contract page sends the invitation and clears it", async ({ browser }) => {
  const staff = await staffPage(browser);
  const name = `Bounced ${unique()}`;
  const wrong = `bounce.ola.${unique()}@example.org`;
  await createAndPublish(staff, { name, template: "Mutual NDA", person: "Ola Nordmann", email: wrong });

  // The deliverer gets the refusal; the dashboard (the landing page) names the address and the reason.
  await expect(async () => {
    await staff.goto("/");
    await expect(staff).toHaveURL(/\/dashboard$/);
    await expect(staff.getByRole("region", { name: "Invitations that could not be delivered" })).toContainText(wrong, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const failures = staff.getByRole("region", { name: "Invitations that could not be delivered" });
  await expect(failures.getByRole("listitem").filter({ hasText: wrong })).toContainText("5.1.1 No such mailbox here");
  expect(await allViolations(staff)).toEqual([]);

  // The count links to the contracts list filtered the same way.
  await staff.getByRole("link", { name: /contracts?: Invitations not delivered$/ }).click();
  await expect(staff).toHaveURL(/\/contracts\?.*delivery_failed=true/);
  await expect(staff.getByText("Only contracts with an invitation that could not be delivered")).toBeVisible();
  await expect(staff.getByRole("row").filter({ hasText: name })).toBeVisible();

  // On the contract page: the reason, and the address corrected and sent in one step.
  await staff.goto("/");
  await failures.getByRole("link", { name }).click();
  const status = staff.getByRole("group", { name: "Signing status of Ola Nordmann" });
  await expect(status).toContainText("The mail server said:");
  await expect(status).toContainText("550 5.1.1 No such mailbox here");
  const right = `ola.${unique()}@example.org`;
  await status.getByLabel("E-mail address").fill(right);
  await status.getByRole("button", { name: "Save and send" }).click();
  await expect(status).not.toContainText("could not be delivered");
  expect(await mailTo(right, /^Please sign: /)).toMatch(/\/sign\//);

  await staff.goto("/dashboard");
  await expect(staff.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(staff.getByText(wrong)).toHaveCount(0);
});

test("a contract's reminder settings: out of range is refused next to its field, what was typed stays, nothing changes", async ({ browser }) => {
  const staff = await staffPage(browser);
  const name = `Reminders ${unique()}`;
  await createAndPublish(staff, { name, template: "Mutual NDA", person: "Rita Reminder", email: `rita.${unique()}@example.org` });
  const reminders = staff.getByRole("form", { name: "Reminder settings" });
  const interval = reminders.getByLabel("Then every, days");
  await expect(interval).toHaveAttribute("placeholder", "2 (workspace default)");
  await interval.fill("45");
  await reminders.getByRole("button", { name: "Save reminder settings" }).click();
  await expect(reminders.getByText("Must be between 1 and 30.")).toBeVisible();
  await expect(interval).toHaveValue("45");
  await expect(interval).toHaveAttribute("aria-invalid", "true");
  await expect(interval).toBeFocused();
  await interval.fill("3");
  await reminders.getByRole("button", { name: "Save reminder settings" }).click();
  await expect(reminders.getByRole("status")).toHaveText("Saved.");
  expect(await allViolations(staff)).toEqual([]);
});

test("the signing page: a mistyped code and a wrong name each get one plain sentence next to their field, and what was typed stays", async ({ browser }) => {
  const staff = await staffPage(browser);
  const name = `Plain words ${unique()}`;
  const email = `petra.${unique()}@example.org`;
  // This template asks for an e-mailed code.
  await createAndPublish(staff, { name, template: "Supplier purchase order", person: "Petra Plain", email });
  const link = (await mailTo(email, /^Please sign: /)).match(/http:\/\/127\.0\.0\.1:\d+\/sign\/[A-Za-z0-9_-]{43}/)?.[0];
  expect(link).toBeTruthy();

  const signer = await (await browser.newContext()).newPage();
  await signer.goto(link!);
  const code = signer.getByLabel("Code from the e-mail");
  const fullName = signer.getByLabel("Type your full name to sign");
  await code.fill("12 3a");
  await fullName.fill("Petra Plain");
  await signer.getByRole("button", { name: "Sign", exact: true }).click();
  // (Next's route announcer is an empty alert too.)
  const alerts = signer.getByRole("alert").filter({ hasText: /./ });
  await expect(alerts).toHaveCount(1);
  await expect(alerts).toHaveText("Type the six digits from the e-mail.");
  await expect(code).toHaveValue("12 3a");
  await expect(code).toHaveAttribute("aria-invalid", "true");

  // A right code with a wrong name: the name's one sentence, saying how the contract writes it.
  await signer.getByRole("button", { name: "E-mail me a code" }).click();
  const mailed = (await mailTo(email, /^Your code for /)).match(/\b(\d{6})\b/)?.[1];
  await code.fill(mailed!);
  await fullName.fill("Petra Plane");
  await signer.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(alerts).toHaveCount(1);
  await expect(alerts).toHaveText("Type your name as the contract writes it: Petra Plain");
  await expect(fullName).toHaveValue("Petra Plane");
  await expect(signer.getByText("full_name")).toHaveCount(0);
});
