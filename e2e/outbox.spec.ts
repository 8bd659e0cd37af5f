import { expect, test } from "@playwright/test";
import { newNonce } from "@/lib/domain/signing";
import { appOrigin, EDITOR, signIn } from "./support/auth";
import { withAppDatabase } from "./support/db";
import { allViolations, failOnConsoleErrors } from "./support/page-checks";

failOnConsoleErrors();

test("an admin sees a kept message on the Outbox, with its signing link to click", async ({ page }) => {
  const subject = `Please sign: Outbox ${Date.now()}`;
  await withAppDatabase(async (db) => {
    // A participant of the demo data, "published": it has the nonces its link and code derive from.
    const { rows } = await db.query<{ id: number; contract_id: number; email: string }>(
      `SELECT p.id, pa.contract_id, p.email FROM participants p JOIN parties pa ON pa.id = p.party_id WHERE NOT pa.my_party AND p.email <> '' ORDER BY p.id LIMIT 1`,
    );
    const participant = rows[0]!;
    await db.query(`UPDATE participants SET signing_nonce = $1, two_step_code_nonce = $2 WHERE id = $3`, [newNonce(), newNonce(), participant.id]);
    await db.query(
      `INSERT INTO email_messages (kind, contract_id, participant_id, to_address, subject, body, link_origin, status)
       VALUES ('invitation', $1, $2, $3, $4, $5, $6, 'kept')`,
      [participant.contract_id, participant.id, participant.email, subject, "Sign here: {{signing_link}}\nYour code: {{code}}\n", appOrigin()],
    );
  });

  await signIn(page);
  await page.goto("/contracts");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Outbox" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  await expect(page.getByRole("note")).toContainText("This deployment sends no mail");

  const row = page.getByRole("row", { name: new RegExp(subject) });
  await expect(row).toContainText("Kept (not sent)");
  await row.getByText("Show text").click();
  const link = row.getByRole("link", { name: /\/sign\// });
  await expect(link).toBeVisible();
  expect(await link.getAttribute("href")).toMatch(new RegExp(`^${appOrigin()}/sign/[A-Za-z0-9_-]{43}$`));
  await expect(row).toContainText(/Your code: \d{6}/);
  await expect(row).not.toContainText("{{");
  expect(await allViolations(page)).toEqual([]);
});

test("a user who is not an administrator is refused the Outbox, and does not see it in the menu", async ({ page }) => {
  await signIn(page, EDITOR);
  await page.goto("/outbox");
  await expect(page.getByRole("heading", { level: 1, name: "Admins only" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Outbox" })).toHaveCount(0);
  expect(await page.content()).not.toContain("/sign/");
  const res = await page.request.get("/v1/email_messages");
  expect(res.status()).toBe(403);
});
