import { expect, test, type Browser, type Page } from "@playwright/test";
import { startServer, type RunningServer } from "@/test/helpers/server";
import { startSmtpSink } from "./support/smtp-sink";
import { PASSWORD, signedInPageOn } from "./support/auth";
import { allViolations, unique } from "./support/page-checks";

// Issue 37 in the browser, with real mail: an ordered contract whose invitations arrive stage by
// stage (and whose out-of-turn link shows the waiting page), and a delegation from the signing page
// to the delegate's signature. Its own app (production build, fresh embedded database with the demo
// data) sends to its own SMTP server.

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let app: RunningServer;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  smtp = await startSmtpSink();
  app = await startServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: "Contracts <contracts@example.test>", SEED_ADMIN_PASSWORD: PASSWORD, TRUSTED_PROXIES: "loopback" } });
});

test.afterAll(async () => {
  await app?.stop();
  await smtp?.stop();
});

const staffPage = (browser: Browser): Promise<Page> => signedInPageOn(browser, app.baseUrl);

/** The staff session calls /v1 as the pages do. */
async function v1(page: Page, method: "GET" | "POST", path: string, data?: unknown) {
  const res = await page.request.fetch(path, { method, headers: { origin: app.baseUrl }, ...(data === undefined ? {} : { data }) });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/** A contract in Sales from the Mutual NDA template, one individual counterparty per person. */
async function create(page: Page, name: string, signingOrder: "ordered" | "parallel", people: { name: string; email: string; order?: number }[], type: "individual" | "company" = "individual") {
  const workspaces = await v1(page, "GET", "/v1/workspaces");
  const sales = workspaces.data.find((w: { name: string }) => w.name === "Sales");
  const templates = await v1(page, "GET", `/v1/templates?workspace_id=${sales.id}&limit=100`);
  const nda = templates.data.find((t: { name: string }) => t.name === "Mutual NDA");
  return v1(page, "POST", "/v1/contracts/create", {
    workspace_id: sales.id,
    template_id: nda.id,
    name,
    signing_order: signingOrder,
    // The NDA's text needs its effective date before it can be published.
    data_fields: [{ custom_id: "effective_date", value: "2026-12-01" }],
    parties: people.map((p) => {
      const participant = { name: p.name, email: p.email, signatory: true, ...(p.order ? { sign_order: p.order } : {}) };
      return type === "individual" ? { type, participant } : { type, name: `${p.name} AB`, participants: [participant] };
    }),
  });
}

const linkIn = (text: string) => text.match(/http:\/\/127\.0\.0\.1:\d+\/sign\/[A-Za-z0-9_-]{43}/)?.[0];

async function signAs(browser: Browser, link: string, fullName: string) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  await page.getByLabel("Type your full name to sign").fill(fullName);
  await page.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(page.getByRole("heading", { name: "You have signed" })).toBeVisible();
}

test("an ordered contract of three signatories in two stages: each invitation arrives when its stage opens; out of turn, the link waits", async ({ browser }) => {
  const staff = await staffPage(browser);
  const name = `In stages ${unique()}`;
  const [ann, ben, cid] = ["ann", "ben", "cid"].map((who) => ({ name: `${who[0]!.toUpperCase()}${who.slice(1)} Stage`, email: `${who}.${unique()}@example.org` }));
  const contract = await create(staff, name, "ordered", [{ ...ann!, order: 1 }, { ...ben!, order: 1 }, { ...cid!, order: 2 }]);
  await v1(staff, "POST", `/v1/contracts/${contract.id}/publish`, {});

  const annMail = await smtp.waitFor(ann!.email, new RegExp(name));
  const benMail = await smtp.waitFor(ben!.email, new RegExp(name));
  // Stage 1's mail has arrived (and the organizer's); none for Cid.
  expect(smtp.received.filter((m) => m.to === cid!.email)).toEqual([]);

  // Cid's own link, copied by staff, opens the waiting page, with no way to sign.
  const cidParty = contract.parties.find((p: { participant?: { email: string } }) => p.participant?.email === cid!.email);
  const cidLink = (await v1(staff, "GET", `/v1/contracts/${contract.id}/parties/${cidParty.id}/participants/${cidParty.participant.id}/signing_link`)).url as string;
  const waiting = await (await browser.newContext()).newPage();
  await waiting.goto(cidLink);
  await expect(waiting.getByRole("heading", { name: "Waiting for others to sign first" })).toBeVisible();
  await expect(waiting.getByLabel("Type your full name to sign")).toHaveCount(0);
  expect(await allViolations(waiting)).toEqual([]);

  await signAs(browser, linkIn(annMail.text)!, ann!.name);
  await new Promise((r) => setTimeout(r, 1000));
  expect(smtp.received.filter((m) => m.to === cid!.email)).toEqual([]);
  await signAs(browser, linkIn(benMail.text)!, ben!.name);
  const cidMail = await smtp.waitFor(cid!.email, new RegExp(name));
  expect(linkIn(cidMail.text)).toBe(cidLink);
  await signAs(browser, cidLink, cid!.name);
  await smtp.waitFor(cid!.email, new RegExp(`^Signed: ${name}$`));
});

test("delegation: the signatory hands on from the signing page; the delegate's own link arrives and signs; the old link is dead", async ({ browser }) => {
  const staff = await staffPage(browser);
  const name = `Handed on ${unique()}`;
  const dan = { name: "Dan Delegator", email: `dan.${unique()}@example.org` };
  const dee = { name: "Dee Delegate", email: `dee.${unique()}@example.org` };
  const contract = await create(staff, name, "parallel", [dan], "company");
  await v1(staff, "POST", `/v1/contracts/${contract.id}/publish`, {});
  const danLink = linkIn((await smtp.waitFor(dan.email, new RegExp(name))).text)!;

  const page = await (await browser.newContext()).newPage();
  await page.goto(danLink);
  await page.getByRole("button", { name: "Someone else should sign this" }).click();
  // An address already in the contract is refused next to the field, and what was typed stays.
  await page.getByLabel("Their full name").fill(dee.name);
  await page.getByLabel("Their e-mail address").fill(dan.email);
  await page.getByRole("button", { name: "Hand it on" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "already takes part" })).toBeVisible();
  await expect(page.getByLabel("Their full name")).toHaveValue(dee.name);
  // At a phone's width, with the form open and its message showing, axe finds nothing.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await allViolations(page)).toEqual([]);
  await page.getByLabel("Their e-mail address").fill(dee.email);
  await page.getByLabel("Why? (optional, they will see it)").fill("Dee signs our contracts");
  await page.getByRole("button", { name: "Hand it on" }).click();
  await expect(page.getByRole("heading", { name: "You have handed this on" })).toBeVisible();

  const deeMail = await smtp.waitFor(dee.email, new RegExp(name));
  expect(deeMail.text).toContain("Dee signs our contracts");
  await page.goto(danLink);
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
  await signAs(browser, linkIn(deeMail.text)!, dee.name);

  // The contract page shows both people; the trail names the handover.
  await staff.goto(`/contracts/${contract.id}`);
  await expect(staff.getByText("Handed on", { exact: true })).toBeVisible();
  await expect(staff.getByText(`handed their signature on to ${dee.name}`)).toBeVisible();
});

test("delegation with an e-mailed code: the handover needs the code typed above, as signing does", async ({ browser }) => {
  const staff = await staffPage(browser);
  const name = `Handed on by code ${unique()}`;
  const val = { name: "Val Coded", email: `val.${unique()}@example.org` };
  const wes = { name: "Wes Delegate", email: `wes.${unique()}@example.org` };
  const procurement = (await v1(staff, "GET", "/v1/workspaces")).data.find((w: { name: string }) => w.name === "Procurement");
  const order = (await v1(staff, "GET", `/v1/templates?workspace_id=${procurement.id}&limit=100`)).data.find((t: { name: string }) => t.name === "Supplier purchase order");
  const contract = await v1(staff, "POST", "/v1/contracts/create", {
    workspace_id: procurement.id,
    template_id: order.id,
    name,
    data_fields: [
      { custom_id: "po_number", value: "PO-7" },
      { custom_id: "amount", value: "100 EUR" },
    ],
    parties: [{ type: "company", name: "Val AB", participants: [{ ...val, signatory: true, two_step_authentication_method: "email" }] }],
  });
  await v1(staff, "POST", `/v1/contracts/${contract.id}/publish`, {});
  const valLink = linkIn((await smtp.waitFor(val.email, new RegExp(name))).text)!;

  const page = await (await browser.newContext()).newPage();
  await page.goto(valLink);
  await page.getByRole("button", { name: "Someone else should sign this" }).click();
  await page.getByLabel("Their full name").fill(wes.name);
  await page.getByLabel("Their e-mail address").fill(wes.email);
  // The link alone hands nothing on; the code's problem is one plain sentence.
  await page.getByRole("button", { name: "Hand it on" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "six digits" })).toHaveText("Type the six digits from the e-mail.");
  await page.getByLabel("Code from the e-mail").fill("123456");
  await page.getByRole("button", { name: "Hand it on" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Ask for a new code" })).toBeVisible();
  await page.getByRole("button", { name: "E-mail me a code" }).click();
  const code = (await smtp.waitFor(val.email, /^Your code for /)).text.match(/\b(\d{6})\b/)?.[1];
  expect(code).toBeTruthy();
  await page.getByLabel("Code from the e-mail").fill(code!);
  await page.getByRole("button", { name: "Hand it on" }).click();
  await expect(page.getByRole("heading", { name: "You have handed this on" })).toBeVisible();
  expect(linkIn((await smtp.waitFor(wes.email, new RegExp(name))).text)).toBeTruthy();
});
