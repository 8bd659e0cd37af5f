import { expect, test, type Page } from "@playwright/test";
import type { TContract, TContractDocument, TTemplateList, TWorkspaceList } from "@/lib/schemas";
import { appOrigin, signIn } from "./support/auth";
import { allViolations, failOnConsoleErrors, unique } from "./support/page-checks";

// A draft's own text edited on its page (docs/web-app.md "Documents"): the template editor's form
// beside a preview filled in with the contract's data fields, saved with PUT …/document, checked
// again after a reload; a save over someone else's change is refused (If-Match); publishing follows
// the fields the text names; a published text is read-only.

failOnConsoleErrors();

/** The staff session calls /v1 as the pages do. */
async function v1<T>(page: Page, method: "GET" | "POST" | "PUT", path: string, data?: unknown): Promise<T> {
  const res = await page.request.fetch(path, { method, headers: { origin: appOrigin() }, ...(data === undefined ? {} : { data }) });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

/** A Mutual NDA draft in Sales with a signing counterparty; its effective date filled, its term (which the text names) empty. */
async function createNda(page: Page): Promise<TContract> {
  const workspaces = await v1<TWorkspaceList>(page, "GET", "/v1/workspaces");
  const sales = workspaces.data.find((w) => w.name === "Sales")!;
  const templates = await v1<TTemplateList>(page, "GET", `/v1/templates?workspace_id=${sales.id}&limit=100`);
  const nda = templates.data.find((t) => t.name === "Mutual NDA")!;
  return v1<TContract>(page, "POST", "/v1/contracts/create", {
    workspace_id: sales.id,
    template_id: nda.id,
    name: `Own text ${unique()}`,
    data_fields: [
      { custom_id: "effective_date", value: "2026-12-01" },
      { custom_id: "term", value: "" },
    ],
    parties: [{ type: "company", name: "Fjord Tekst AS", participants: [{ name: "Tove Tekst", email: `tove.${unique()}@example.org`, signatory: true }] }],
  });
}

test("staff edit a draft's text beside a live preview, save it, find it after a reload; publishing follows the fields it names; a published text is read-only", async ({ page }) => {
  await signIn(page);
  const contract = await createNda(page);
  await page.goto(`/contracts/${contract.id}`);
  const documentSection = page.getByRole("region", { name: "Document" });
  const panel = page.getByRole("region", { name: "Publish" });
  // The template's text names the empty term, so publishing waits for it.
  await expect(panel).toContainText("Term (months)");

  await documentSection.getByRole("button", { name: "Edit text" }).click();
  const editor = documentSection.getByRole("form", { name: "Contract text editor" });
  const preview = documentSection.getByRole("article", { name: "Preview of the text" });
  await expect(preview).toContainText("This agreement lasts [Term (months)] (not filled in yet) months from 2026-12-01.");
  await expect(documentSection).toContainText("This text needs values for: Term (months).");

  // A placeholder naming no data field of the contract: one sentence next to the field, and no saving.
  const term = editor.getByRole("group", { name: "Section 4" });
  await term.getByLabel("Text").fill("This agreement lasts until {{field.end_date}}.");
  await expect(term.getByText('{{field.end_date}} names no data field of the contract (custom_id "end_date").', { exact: true })).toBeVisible();
  await expect(term.getByLabel("Text")).toHaveAttribute("aria-invalid", "true");
  await expect(editor.getByRole("button", { name: "Save text" })).toBeDisabled();

  // The preview follows the typing, with the contract's own values and parties.
  await term.getByLabel("Heading").fill("3. How long this lasts");
  await term.getByLabel("Text").fill("This agreement starts on {{field.effective_date}} and binds {{parties}}.");
  await expect(preview.getByRole("heading", { name: "3. How long this lasts" })).toBeVisible();
  await expect(preview).toContainText(/This agreement starts on 2026-12-01 and binds .+ and Fjord Tekst AS\./);
  await expect(documentSection).not.toContainText("This text needs values for");
  await editor.getByRole("button", { name: "Save text" }).click();
  await expect(editor.getByRole("status")).toHaveText("Saved.");
  await expect(panel.getByText("Ready to publish.")).toBeVisible();

  // A new section naming the empty term: marked in the preview, and once saved, publishing waits again.
  await editor.getByRole("button", { name: "Add a section" }).click();
  const renewal = editor.getByRole("group", { name: "Section 8" });
  await renewal.getByLabel("Heading").fill("6. Renewal");
  await renewal.getByLabel("Text").fill("It renews for {{field.term}} months at a time.");
  await expect(preview).toContainText("It renews for [Term (months)] (not filled in yet) months at a time.");
  await expect(documentSection).toContainText("This text needs values for: Term (months).");
  await editor.getByRole("button", { name: "Save text" }).click();
  await expect(editor.getByRole("status")).toHaveText("Saved.");
  await expect(panel.getByRole("list", { name: "What is missing" })).toContainText("Term (months)");
  expect(await allViolations(page)).toEqual([]);

  // After a reload the saved text is the contract's.
  await page.reload();
  const text = documentSection.getByRole("article", { name: "Contract text" });
  await expect(text.getByRole("heading", { name: "3. How long this lasts" })).toBeVisible();
  await expect(text).toContainText("This agreement starts on 2026-12-01 and binds");
  await expect(text.getByRole("heading", { name: "6. Renewal" })).toBeVisible();
  await expect(text).toContainText("It renews for [Term (months)] (not filled in yet) months at a time.");
  await expect(text).not.toContainText("This agreement lasts");

  // Changed meanwhile by another hand while the editor is open: the save names the version it opened
  // (If-Match) and is refused in one sentence, the typing kept; a reload shows their version.
  await documentSection.getByRole("button", { name: "Edit text" }).click();
  await editor.getByRole("group", { name: "Section 8" }).getByLabel("Text").fill("It renews every year.");
  const opened = await v1<TContractDocument>(page, "GET", `/v1/contracts/${contract.id}/document`);
  await v1(page, "PUT", `/v1/contracts/${contract.id}/document`, { body: { sections: [...opened.body.sections, { heading: "7. Notices", text: "By e-mail." }] } });
  await editor.getByRole("button", { name: "Save text" }).click();
  await expect(editor.getByRole("alert")).toHaveText("Someone else changed this text since you opened it; reload the page to see their version.");
  await expect(editor.getByRole("group", { name: "Section 8" }).getByLabel("Text")).toHaveValue("It renews every year.");
  await page.reload();
  await expect(text.getByRole("heading", { name: "7. Notices" })).toBeVisible();
  await expect(text).toContainText("It renews for [Term (months)] (not filled in yet) months at a time.");

  // Published meanwhile (by another hand) while the editor is open: the save is refused in one sentence, the typing kept.
  await documentSection.getByRole("button", { name: "Edit text" }).click();
  await editor.getByRole("group", { name: "Section 8" }).getByLabel("Text").fill("It does not renew.");
  await v1(page, "PUT", `/v1/contracts/${contract.id}/data_fields/c::term`, { value: "24" });
  await v1(page, "POST", `/v1/contracts/${contract.id}/publish`, {});
  await editor.getByRole("button", { name: "Save text" }).click();
  await expect(editor.getByRole("alert")).toHaveText(`Contract ${contract.id} is pending; its text changes only while it is a draft.`);
  await expect(editor.getByRole("group", { name: "Section 8" }).getByLabel("Text")).toHaveValue("It does not renew.");

  // A published contract's text is read-only, and says why.
  await page.reload();
  await expect(text).toContainText("It renews for 24 months at a time.");
  await expect(documentSection).toContainText("This text can no longer change: it was frozen when the contract was published");
  await expect(documentSection.getByRole("button", { name: "Edit text" })).toHaveCount(0);
  await expect(documentSection.getByRole("form")).toHaveCount(0);
  expect(await allViolations(page)).toEqual([]);
});
