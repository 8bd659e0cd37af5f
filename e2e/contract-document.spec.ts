import { expect, test } from "@playwright/test";
import { signIn } from "./support/auth";
import { allViolations, failOnConsoleErrors, unique } from "./support/page-checks";

// Issue 36: the contract is a document. Staff see the text as it will be signed, fill the data
// field it still needs, attach a file and publish; the participant reads the text on a phone.

failOnConsoleErrors();

test("staff fill the data field the text needs, see the text, attach a file, publish; the participant reads it at 375 px", async ({ page, browser }) => {
  await signIn(page);
  const name = `Document ${unique()}`;
  await page.goto("/contracts/new");
  await page.getByLabel("Contract name").fill(name);
  await page.getByLabel("Workspace").selectOption({ label: "Sales" });
  await page.getByLabel("Template").selectOption({ label: "Mutual NDA" });
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Add company" }).click();
  const company = page.getByRole("group", { name: "Counterparty 1: company" });
  await company.getByLabel("Company name").fill("Fjord Åsane AS");
  const first = company.getByRole("group", { name: "Participant 1", exact: true });
  await first.getByRole("textbox", { name: /^Name/ }).fill("Bjørn Ærøe");
  await first.getByLabel("E-mail").fill(`bjorn.${unique()}@example.org`);
  await first.getByLabel("Signatory").check();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Create contract" }).click();
  await expect(page).toHaveURL(/\/contracts\/\d+$/);
  const contractId = Number(page.url().split("/").pop());

  // The text, with the empty data field marked and named, and publishing held back for it.
  const documentSection = page.getByRole("region", { name: "Document" });
  const text = documentSection.getByRole("article", { name: "Contract text" });
  await expect(text.getByRole("heading", { name: "3. How long it lasts" })).toBeVisible();
  await expect(text).toContainText("This agreement lasts 24 months from [Effective date] (not filled in yet).");
  await expect(documentSection).toContainText("The text needs values for: Effective date.");
  const panel = page.getByRole("region", { name: "Publish" });
  // The checklist names the field as staff know it, not by its custom id (the API's sentence adds it).
  await expect(panel.getByRole("list", { name: "What is missing" }).getByRole("listitem")).toHaveText(["The text needs a value for the data field Effective date."]);

  const row = page.getByRole("row", { name: /Effective date/ });
  await row.getByRole("button", { name: /, edit value of Effective date$/ }).click();
  await row.getByRole("textbox", { name: "Value of Effective date" }).fill("2026-12-01");
  await row.getByRole("textbox", { name: "Value of Effective date" }).press("Enter");
  await expect(text).toContainText("This agreement lasts 24 months from 2026-12-01.");
  await expect(text).toContainText("Fjord Åsane AS");
  await expect(documentSection).not.toContainText("The text needs values for");

  // An attachment, added and listed.
  const attachments = page.getByRole("region", { name: "Attachments" });
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), Buffer.alloc(64)]);
  await attachments.getByLabel(/Add an attachment/).setInputFiles({ name: "Prislista.png", mimeType: "image/png", buffer: png });
  await expect(attachments.getByRole("link", { name: "Prislista.png" })).toBeVisible();
  // A text file is refused by its content, with the reason shown.
  // Chosen as a user does, from the focused field (disabled while it uploads, so focus leaves it).
  await attachments.getByLabel(/Add an attachment/).focus();
  await attachments.getByLabel(/Add an attachment/).setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("just text") });
  await expect(attachments.getByRole("alert")).toContainText("not a PDF, PNG or JPEG");
  // Focus is back on the field, which names its problem.
  await expect(attachments.getByLabel(/Add an attachment/)).toBeFocused();
  await expect(attachments.getByLabel(/Add an attachment/)).toHaveAccessibleDescription(/not a PDF, PNG or JPEG/);

  await expect(panel.getByText("Ready to publish.")).toBeVisible();
  await panel.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Pending", { exact: true }).first()).toBeVisible();
  await expect(attachments.getByRole("button", { name: /Remove/ })).toHaveCount(0);

  // The participant's link (what the invitation carries), opened on a phone-sized page without a session.
  const parties = (await (await page.request.get(`/v1/contracts/${contractId}`)).json()) as { parties: { my_party: boolean; id: number; participants: { id: number }[] }[] };
  const party = parties.parties.find((p) => !p.my_party)!;
  const linkRes = await page.request.get(`/v1/contracts/${contractId}/parties/${party.id}/participants/${party.participants[0]!.id}/signing_link`);
  expect(linkRes.status()).toBe(200);
  const link = ((await linkRes.json()) as { url: string }).url;

  const phone = await (await browser.newContext({ viewport: { width: 375, height: 740 } })).newPage();
  await phone.goto(link);
  await expect(phone.getByRole("main")).toBeVisible();
  const contract = phone.getByRole("region", { name: "The contract" });
  await expect(contract.getByRole("heading", { level: 2, name: "The contract" })).toBeVisible();
  await expect(contract.getByRole("heading", { level: 3, name: "1. Why we share information" })).toBeVisible();
  await expect(contract).toContainText("This agreement lasts 24 months from 2026-12-01.");
  await expect(contract.getByRole("link", { name: "Prislista.png" })).toBeVisible();
  await expect(contract.getByRole("link", { name: "The contract as PDF" })).toBeVisible();
  // The text comes before the decision, and nothing is wider than the phone.
  const order = await phone.evaluate(() => {
    const text = document.querySelector('[aria-label="Contract text"]')!;
    const decision = document.getElementById("decide-heading")!;
    return Boolean(text.compareDocumentPosition(decision) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  expect(order).toBe(true);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await allViolations(phone)).toEqual([]);

  // The PDF through the link: a draft copy until everyone has signed.
  const pdf = await phone.request.get(await contract.getByRole("link", { name: "The contract as PDF" }).getAttribute("href").then((h) => h!));
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
});

test("staff edit a template's text with a live preview; a placeholder naming no data field is refused with the section named", async ({ page }) => {
  await signIn(page);
  await page.goto("/templates");
  await page.getByRole("link", { name: "Supplier purchase order" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Supplier purchase order: text" })).toBeVisible();
  const preview = page.getByRole("article", { name: "Preview of the text" });
  await expect(preview).toContainText("Order number: [PO number]");
  await expect(preview).toContainText("SEK");

  const section = page.getByRole("group", { name: "Section 2" });
  await section.getByLabel("Text").fill("Order number: {{field.po_number}} for {{field.po_nummer}}.");
  await expect(section.getByText("{{field.po_nummer}} names no data field of the template")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save text" })).toBeDisabled();

  await section.getByLabel("Text").fill("Order number: {{field.po_number}}, total {{field.amount}} {{field.currency}}.");
  await expect(preview).toContainText("Order number: [PO number] (not filled in yet), total [Amount] (not filled in yet) SEK.");
  expect(await allViolations(page)).toEqual([]);
});
