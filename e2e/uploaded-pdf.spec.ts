import { readFile } from "node:fs/promises";
import path from "node:path";
import fontkit from "@pdf-lib/fontkit";
import { expect, test, type Page } from "@playwright/test";
import { PDFDocument, rgb } from "pdf-lib";
import { appOrigin, signIn } from "./support/auth";
import { allViolations, failOnConsoleErrors, unique } from "./support/page-checks";

// Issue 46: a PDF of their own as the contract. Staff upload a PDF on a draft (or in the wizard),
// drag each signatory's signature box onto a page, publish; the signer sees the pages on a phone,
// with their box marked, and signs.

failOnConsoleErrors();

/** A sentence only page 1 of the test PDFs carries: found in pdf.js's text layer, not on the canvas. */
const DISTINCTIVE = "The lessee waters the office ficus every second Thursday.";

/** A PDF of `pages` Letter pages, each with a heading and lines of text in an embedded font (the app refuses PDFs whose fonts are not embedded). */
async function makePdf(pages: number, title: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(await readFile(path.join("assets", "fonts", "DejaVuSans.ttf")), { subset: true });
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`${title} — page ${n} of ${pages}`, { x: 72, y: 700, size: 22, font, color: rgb(0.05, 0.1, 0.3) });
    if (n === 1) page.drawText(DISTINCTIVE, { x: 72, y: 675, size: 12, font });
    for (let line = 0; line < 12; line++) {
      page.drawText(`Clause ${n}.${line + 1}: the parties agree to what this line says, Åsa Öberg included.`, { x: 72, y: 650 - line * 22, size: 11, font });
    }
    page.drawLine({ start: { x: 72, y: 160 }, end: { x: 300, y: 160 }, thickness: 1 });
    page.drawText("Signature", { x: 72, y: 145, size: 9, font });
  }
  return Buffer.from(await doc.save());
}

/** The wizard up to its last step: one company with one signatory. */
async function wizardToReview(page: Page, { name, person, email }: { name: string; person: string; email: string }) {
  await page.goto("/contracts/new");
  await page.getByLabel("Contract name").fill(name);
  await page.getByLabel("Workspace").selectOption({ label: "Sales" });
  await page.getByLabel("Template").selectOption({ label: "Mutual NDA" });
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Add company" }).click();
  const company = page.getByRole("group", { name: "Counterparty 1: company" });
  await company.getByLabel("Company name").fill("Öberg Konsult AB");
  const first = company.getByRole("group", { name: "Participant 1", exact: true });
  await first.getByRole("textbox", { name: /^Name/ }).fill(person);
  await first.getByLabel("E-mail").fill(email);
  await first.getByLabel("Signatory").check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("heading", { name: /Step 3 of 3/ })).toBeVisible();
}

/** Whether the page's canvas has been drawn with something dark (text), read from its pixels, once the page is scrolled into view. */
async function canvasHasInk(page: Page, label: string): Promise<boolean> {
  // Pages are drawn only near the screen: look at it as a reader would.
  await page.getByRole("group", { name: label }).scrollIntoViewIfNeeded();
  return page.getByRole("group", { name: label }).locator("canvas").evaluate((canvas: HTMLCanvasElement) => {
    if (canvas.width === 0 || canvas.height === 0) return false;
    const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 100 && data[i + 1]! < 100 && data[i + 2]! < 140 && data[i + 3]! > 200) dark++;
    return dark > 500;
  });
}

type TPlacement = { id: number; kind: string; participant_id: number | null; page: number; x: number; y: number; width: number; height: number };

test("staff upload a PDF on a draft, drag the signature boxes onto page 2, publish; the signer sees the pages at 375 px and signs", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const name = `Own PDF ${unique()}`;
  const person = "Åsa Öberg";
  await wizardToReview(page, { name, person, email: `asa.${unique()}@example.org` });
  await page.getByRole("button", { name: "Create contract" }).click();
  await expect(page).toHaveURL(/\/contracts\/\d+$/);
  const contractId = Number(page.url().split("/").pop());
  const contract = (await (await page.request.get(`/v1/contracts/${contractId}`)).json()) as { parties: { my_party: boolean; id: number; participants: { id: number; name: string }[] }[] };
  const party = contract.parties.find((p) => !p.my_party)!;
  const signerId = party.participants.find((p) => p.name === person)!.id;

  // The draft's text is its document until a PDF is uploaded in its place.
  const documentSection = page.getByRole("region", { name: "Document" });
  await expect(documentSection.getByRole("article", { name: "Contract text" })).toBeVisible();
  await documentSection.getByLabel(/Upload your own PDF/).setInputFiles({ name: "Avtal.pdf", mimeType: "application/pdf", buffer: await makePdf(3, "Avtal") });
  await expect(documentSection).toContainText("The document is the uploaded PDF Avtal.pdf");
  await expect(documentSection.getByRole("article", { name: "Contract text" })).toHaveCount(0);
  await expect(documentSection.getByRole("group", { name: "Page 3 of 3" })).toBeAttached();
  await expect.poll(() => canvasHasInk(page, "Page 1 of 3")).toBe(true);
  // The page's text lies over the canvas in pdf.js's text layer: selectable, and read by screen readers.
  await expect(documentSection.getByRole("group", { name: "Page 1 of 3" }).locator(".textLayer").getByText(DISTINCTIVE)).toBeVisible();

  // Publishing waits for a signature box per signatory.
  const panel = page.getByRole("region", { name: "Publish" });
  await expect(panel).toContainText(`${person} (Öberg Konsult AB) signs but has no signature box on the PDF.`);

  // Every signatory's signature chip, dragged by mouse onto page 2.
  const palette = documentSection.getByRole("region", { name: "Boxes to place" });
  const chips = palette.getByRole("list", { name: "Boxes to place" }).getByText(/^Signature — /);
  const chipCount = await chips.count();
  const asaChip = (await chips.allTextContents()).indexOf(`Signature — ${person}`);
  expect(asaChip).toBeGreaterThanOrEqual(0);
  expect(chipCount).toBeGreaterThanOrEqual(1);
  const page2 = documentSection.getByRole("group", { name: "Page 2 of 3" });
  await page2.scrollIntoViewIfNeeded();
  for (let i = 0; i < chipCount; i++) {
    const chip = chips.nth(i);
    await chip.scrollIntoViewIfNeeded();
    const from = (await chip.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page2.scrollIntoViewIfNeeded();
    const to = (await page2.boundingBox())!;
    // Near the bottom left, one below the other.
    await page.mouse.move(to.x + to.width * 0.3, to.y + to.height * (0.75 + i * 0.1), { steps: 12 });
    await page.mouse.up();
    await expect(page2.getByRole("button", { name: /^Signature — .*, on page 2\./ })).toHaveCount(i + 1);
  }
  const box = page2.getByRole("button", { name: `Signature — ${person}, on page 2. Drag it, or use the arrow keys, to move it.` });
  await expect(box).toBeVisible();

  // Saved where it was dropped: centred on the drop point, as shares of the page.
  const listed = async () => ((await (await page.request.get(`/v1/contracts/${contractId}/placements`)).json()) as { data: TPlacement[] }).data;
  await expect.poll(async () => (await listed()).length).toBe(chipCount);
  const asa = (await listed()).find((p) => p.kind === "signature" && p.participant_id === signerId)!;
  expect(asa).toMatchObject({ page: 2, width: 0.3, height: 0.06 });
  expect(asa.x).toBeCloseTo(0.3 - 0.15, 1);
  expect(asa.y).toBeCloseTo(0.75 + asaChip * 0.1 - 0.03, 1);

  // Moved by dragging: the box follows the pointer and the new place is saved.
  const before = (await listed()).find((p) => p.id === asa.id)!;
  const at = (await box.boundingBox())!;
  await page.mouse.move(at.x + 10, at.y + 5);
  await page.mouse.down();
  const to = (await page2.boundingBox())!;
  await page.mouse.move(at.x + 10 + to.width * 0.2, at.y + 5 - to.height * 0.1, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => (await listed()).find((p) => p.id === asa.id)!.x, { timeout: 10_000 }).toBeCloseTo(before.x + 0.2, 1);

  // A keyboard user adds a name box to a chosen page, then removes it with its × button.
  await palette.getByLabel("Page for added boxes").selectOption("3");
  await palette.getByRole("button", { name: `Add Name — ${person} to page 3` }).click();
  const page3 = documentSection.getByRole("group", { name: "Page 3 of 3" });
  const nameBox = page3.getByRole("button", { name: `Name — ${person}, on page 3. Drag it, or use the arrow keys, to move it.` });
  await expect(nameBox).toBeVisible();
  await nameBox.focus();
  await page.keyboard.press("ArrowRight");
  await expect.poll(async () => (await listed()).find((p) => p.kind === "name")?.x, { timeout: 10_000 }).toBeCloseTo(0.11, 3);
  await page3.getByRole("button", { name: `Remove Name — ${person} from page 3` }).click();
  await expect(nameBox).toHaveCount(0);
  await expect.poll(async () => (await listed()).length).toBe(chipCount);
  expect(await allViolations(page)).toEqual([]);
  await page2.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("placement-editor.png") });

  // After a reload the boxes are where they were left.
  await page.reload();
  await expect(page.getByRole("group", { name: "Page 2 of 3" }).getByRole("button", { name: /^Signature — / })).toHaveCount(chipCount);

  // The text's data field may still be asked for by the template's rules; fill it if it is.
  const row = page.getByRole("row", { name: /Effective date/ });
  if (await panel.getByText("Effective date").count()) {
    await row.getByRole("button", { name: /, edit value of Effective date$/ }).click();
    await row.getByRole("textbox", { name: "Value of Effective date" }).fill("2026-12-01");
    await row.getByRole("textbox", { name: "Value of Effective date" }).press("Enter");
  }
  await expect(panel.getByText("Ready to publish.")).toBeVisible();
  await panel.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Pending", { exact: true }).first()).toBeVisible();
  // Published: the boxes are shown, no longer movable or removable.
  await expect(page.getByRole("button", { name: /^Remove Signature/ })).toHaveCount(0);
  await expect(page.getByRole("group", { name: "Page 2 of 3" })).toContainText(`Signature — ${person}`);

  // The signer's link, opened on a phone without a session.
  const link = ((await (await page.request.get(`/v1/contracts/${contractId}/parties/${party.id}/participants/${signerId}/signing_link`)).json()) as { url: string }).url;

  const phone = await (await browser.newContext({ viewport: { width: 375, height: 740 } })).newPage();
  const phoneErrors: string[] = [];
  phone.on("pageerror", (error) => phoneErrors.push(error.message));
  phone.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) phoneErrors.push(m.text());
  });
  await phone.goto(link);
  const theContract = phone.getByRole("region", { name: "The contract" });
  await expect(theContract.getByRole("group", { name: "Page 1 of 3" })).toBeVisible();
  await expect(theContract.getByRole("article", { name: "Contract text" })).toHaveCount(0);
  await expect.poll(() => canvasHasInk(phone, "Page 1 of 3"), { timeout: 15_000 }).toBe(true);
  // The signer finds the PDF's text as text (the text layer), within its page.
  const sentence = theContract.getByRole("group", { name: "Page 1 of 3" }).getByText(DISTINCTIVE);
  await expect(sentence).toBeVisible();
  await expect(sentence).toHaveCSS("color", "rgba(0, 0, 0, 0)");
  // The page is drawn for the phone's width, at its pixel density, and nothing is wider than the phone.
  const drawn = await theContract.getByRole("group", { name: "Page 1 of 3" }).locator("canvas").evaluate((c: HTMLCanvasElement) => ({ pixels: c.width, css: c.getBoundingClientRect().width, dpr: window.devicePixelRatio }));
  expect(drawn.css).toBeGreaterThan(250);
  expect(drawn.pixels).toBeGreaterThanOrEqual(Math.floor(drawn.css * drawn.dpr) - 1);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // Their box says "Sign here", on page 2; the link leads to it.
  await phone.getByRole("link", { name: "Go to my signature box" }).click();
  const signHere = phone.getByRole("group", { name: "Page 2 of 3" }).getByText("Sign here", { exact: true });
  await expect(signHere).toBeInViewport();
  await expect.poll(() => canvasHasInk(phone, "Page 2 of 3"), { timeout: 15_000 }).toBe(true);
  expect(await allViolations(phone)).toEqual([]);
  await phone.screenshot({ path: test.info().outputPath("signing-page-phone.png") });

  // Small print on a phone: the pages can be enlarged; they then scroll sideways in their own region.
  await phone.getByRole("button", { name: "Larger pages" }).click();
  const enlarged = theContract.getByRole("region", { name: "Enlarged pages" });
  await expect.poll(() => enlarged.getByRole("group", { name: "Page 2 of 3" }).evaluate((p) => p.getBoundingClientRect().width)).toBeGreaterThan(drawn.css * 1.4);
  await expect.poll(() => canvasHasInk(phone, "Page 2 of 3"), { timeout: 15_000 }).toBe(true);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await allViolations(phone)).toEqual([]);

  await phone.getByLabel("Type your full name to sign").fill(person);
  await phone.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(phone.getByRole("heading", { name: "You have signed" })).toBeVisible();
  expect(phoneErrors).toEqual([]);
});

test("staff resize a box by its corner and with Shift+Alt+arrows, then remove the PDF: the template's text is the document again", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  const origin = { origin: appOrigin() };
  const workspaces = (await (await page.request.get("/v1/workspaces")).json()) as { data: { id: number; name: string }[] };
  const sales = workspaces.data.find((w) => w.name === "Sales")!;
  const templates = (await (await page.request.get(`/v1/templates?workspace_id=${sales.id}`)).json()) as { data: { id: number; name: string }[] };
  const template = templates.data.find((t) => t.name === "Mutual NDA")!;
  const person = "Rut Storlek";
  const created = await page.request.post("/v1/contracts/create", {
    headers: origin,
    data: { workspace_id: sales.id, template_id: template.id, name: `Resize ${unique()}`, parties: [{ type: "individual", participant: { name: person, email: `rut.${unique()}@example.org`, signatory: true } }] },
  });
  expect(created.status(), await created.text()).toBe(200);
  const contract = (await created.json()) as { id: number; parties: { my_party: boolean; participant?: { id: number } }[] };
  const signerId = contract.parties.find((p) => !p.my_party)!.participant!.id;
  const uploaded = await page.request.post(`/v1/contracts/${contract.id}/files`, {
    headers: origin,
    multipart: { upload_as: "expanded_pdf", file: { name: "Lease.pdf", mimeType: "application/pdf", buffer: await makePdf(2, "Lease") } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(200);
  const placed = await page.request.post(`/v1/contracts/${contract.id}/placements`, {
    headers: origin,
    data: { kind: "signature", participant_id: signerId, page: 1, x: 0.1, y: 0.5, width: 0.3, height: 0.06 },
  });
  expect(placed.status(), await placed.text()).toBe(200);
  const boxId = ((await placed.json()) as TPlacement).id;
  const stored = async () => ((await (await page.request.get(`/v1/contracts/${contract.id}/placements`)).json()) as { data: TPlacement[] }).data.find((p) => p.id === boxId)!;

  await page.goto(`/contracts/${contract.id}`);
  const documentSection = page.getByRole("region", { name: "Document" });
  const page1 = documentSection.getByRole("group", { name: "Page 1 of 2" });
  const box = page1.getByRole("button", { name: `Signature — ${person}, on page 1. Drag it, or use the arrow keys, to move it.` });
  await expect(box).toBeVisible();
  await expect(box).toHaveAccessibleDescription(/Shift\+Alt\+arrow keys change its size/);
  await expect.poll(() => canvasHasInk(page, "Page 1 of 2")).toBe(true);
  // The text layer lies below the boxes: the box, not the text, is what the pointer finds there.
  await box.scrollIntoViewIfNeeded();
  const centre = (await box.boundingBox())!;
  expect(await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest("button")?.getAttribute("aria-label") ?? null, [centre.x + centre.width / 2, centre.y + centre.height / 2])).toMatch(/^Signature — /);

  /** Waits until the sections above the document have loaded, so the page no longer moves under the pointer. */
  async function settled() {
    await expect(page.getByRole("button", { name: "Add individual" })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: /Loading/ })).toHaveCount(0);
    await expect.poll(() => canvasHasInk(page, "Page 1 of 2")).toBe(true);
  }

  /** Drags the box's corner handle by (dx, dy) shares of the page; answers the PUT's body. */
  async function dragCorner(dx: number, dy: number) {
    await settled();
    const handle = page1.locator("[data-resize-handle]");
    await handle.hover();
    const at = (await handle.boundingBox())!;
    const size = (await page1.boundingBox())!;
    const put = page.waitForRequest((r) => r.method() === "PUT" && r.url().endsWith(`/placements/${boxId}`));
    await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
    await page.mouse.down();
    await page.mouse.move(at.x + at.width / 2 + dx * size.width, at.y + at.height / 2 + dy * size.height, { steps: 8 });
    await page.mouse.up();
    return (await put).postDataJSON() as Record<string, number>;
  }

  // Larger by a tenth of the page's width and 4 % of its height: one PUT of the size alone, kept after a reload.
  expect(Object.keys(await dragCorner(0.1, 0.04)).sort()).toEqual(["height", "width"]);
  await expect.poll(async () => (await stored()).width).toBeCloseTo(0.4, 2);
  expect(await stored()).toMatchObject({ x: 0.1, y: 0.5 });
  expect((await stored()).height).toBeCloseTo(0.1, 2);
  await page.reload();
  await settled();
  await box.scrollIntoViewIfNeeded();
  const [drawnBox, drawnPage] = [(await box.boundingBox())!, (await page1.boundingBox())!];
  expect(drawnBox.width / drawnPage.width).toBeCloseTo(0.4, 1);
  expect(drawnBox.height / drawnPage.height).toBeCloseTo(0.1, 1);

  // Past the page's right edge and above the box's top: kept on the page, and no smaller than the API allows.
  await dragCorner(0.8, -0.3);
  await expect.poll(async () => (await stored()).width).toBeCloseTo(0.9, 4);
  expect((await stored()).height).toBeCloseTo(0.01, 4);

  // The keyboard's way: Shift+Alt+arrows on the focused box, saved once the keys rest.
  await box.focus();
  for (const key of ["ArrowDown", "ArrowDown", "ArrowDown", "ArrowLeft", "ArrowLeft"]) await page.keyboard.press(`Shift+Alt+${key}`);
  await expect.poll(async () => [(await stored()).width, (await stored()).height]).toEqual([0.88, 0.04]);
  expect(await stored()).toMatchObject({ x: 0.1, y: 0.5 });
  expect(await allViolations(page)).toEqual([]);

  // Back to the template's text: asked first, then the PDF and its box are gone.
  await documentSection.getByRole("button", { name: "Remove the PDF (use the template's text)" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove the PDF?" });
  await expect(dialog).toContainText("Lease.pdf and the 1 box placed on it are removed, and the template's text is the document again.");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  expect(await allViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Remove the PDF" }).click();
  await expect(dialog).toBeHidden();
  await expect(documentSection.getByRole("article", { name: "Contract text" })).toBeVisible();
  await expect(documentSection.getByRole("group", { name: /^Page 1 of/ })).toHaveCount(0);
  await expect(documentSection.getByLabel(/Upload your own PDF/)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Document" })).toBeFocused();
  const doc = (await (await page.request.get(`/v1/contracts/${contract.id}/document`)).json()) as { uploaded_pdf: unknown };
  expect(doc.uploaded_pdf).toBeNull();
  expect(((await (await page.request.get(`/v1/contracts/${contract.id}/placements`)).json()) as { count: number }).count).toBe(0);
  expect(await allViolations(page)).toEqual([]);

  // A file that is not a PDF is refused on the field, and focus is back there, with the reason as its description.
  // Chosen as a user does, from the focused field (disabled while it uploads, so focus leaves it).
  await documentSection.getByLabel(/Upload your own PDF/).focus();
  await documentSection.getByLabel(/Upload your own PDF/).setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("just text") });
  const refusal = documentSection.getByRole("alert");
  await expect(refusal).toContainText(/PDF/);
  await expect(documentSection.getByLabel(/Upload your own PDF/)).toBeFocused();
  await expect(documentSection.getByLabel(/Upload your own PDF/)).toHaveAccessibleDescription((await refusal.textContent())!);
});

test("the wizard uploads its optional PDF as the document; a refused file is said on the field, with the draft linked", async ({ page }) => {
  await signIn(page);
  const name = `Wizard PDF ${unique()}`;
  await wizardToReview(page, { name, person: "Jon Fjell", email: `jon.${unique()}@example.org` });
  const field = page.getByLabel("Use your own PDF as the document (optional)");
  await field.setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("just text, not a PDF") });
  await page.getByRole("button", { name: "Create contract" }).click();
  const refusal = page.getByRole("alert").filter({ hasText: "The contract was created as a draft without it" });
  await expect(refusal).toContainText("not a PDF");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const draftHref = await refusal.getByRole("link", { name: "open the draft" }).getAttribute("href");
  expect(draftHref).toMatch(/^\/contracts\/\d+$/);
  expect(await allViolations(page)).toEqual([]);

  // Another file, and the same draft gets it (no second contract is created).
  await field.setInputFiles({ name: "Order.pdf", mimeType: "application/pdf", buffer: await makePdf(2, "Order") });
  await page.getByRole("button", { name: "Upload the PDF and open the contract" }).click();
  await expect(page).toHaveURL(new RegExp(`${draftHref}$`));
  const documentSection = page.getByRole("region", { name: "Document" });
  await expect(documentSection).toContainText("The document is the uploaded PDF Order.pdf");
  await expect(documentSection.getByRole("group", { name: "Page 2 of 2" })).toBeAttached();
  await expect.poll(() => canvasHasInk(page, "Page 1 of 2")).toBe(true);
  const list = (await (await page.request.get(`/v1/contracts?q=${encodeURIComponent(name)}`)).json()) as { count: number };
  expect(list.count).toBe(1);
});

test("pdf.js's worker and data files come from this site, by their exact names only", async ({ request }) => {
  const { version } = JSON.parse(await readFile(path.join("node_modules", "pdfjs-dist", "package.json"), "utf8")) as { version: string };
  const worker = await request.get(`/pdfjs/${version}/pdf.worker.min.mjs`);
  expect(worker.status()).toBe(200);
  expect(worker.headers()["content-type"]).toBe("text/javascript; charset=utf-8");
  expect(worker.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect((await request.get(`/pdfjs/${version}/standard_fonts/LiberationSans-Regular.ttf`)).headers()["content-type"]).toBe("font/ttf");
  expect((await request.get(`/pdfjs/${version}/cmaps/UniJIS-UCS2-H.bcmap`)).status()).toBe(200);
  expect((await request.get(`/pdfjs/${version}/wasm/openjpeg.wasm`)).headers()["content-type"]).toBe("application/wasm");
  for (const refused of [
    `/pdfjs/0.0.1/pdf.worker.min.mjs`,
    `/pdfjs/${version}/pdf.mjs`,
    `/pdfjs/${version}/package.json`,
    `/pdfjs/${version}/standard_fonts/LICENSE_FOXIT`,
    `/pdfjs/${version}/wasm/quickjs-eval.js`,
    `/pdfjs/${version}/cmaps%2F..%2F..%2Fpackage.json`,
    `/pdfjs/${version}/cmaps/..%2F..%2F..%2Fpackage.json`,
  ]) {
    const res = await request.get(refused);
    // 404 from the route, or 400 from the front door for a path it will not pass on.
    expect([400, 404], refused).toContain(res.status());
    expect(await res.text()).not.toContain('"name"');
  }
});
