// Rows of the HTTP read tests' own, made in the server's database with the seed factories, so
// counts are exact even while other test files add contracts to the demo data.
import { createContract, createTemplate, createTemplateType, createUser, createWorkspace } from "@/lib/db/seed/factories";
import type { Tx } from "@/lib/db";
import { serverDb } from "@/test/helpers/http";

/**
 * In one transaction: besides being all-or-nothing, it keeps these writes on one connection, which
 * the embedded database's socket server needs (it interleaves concurrent connections' protocol
 * messages while another connection holds a transaction open).
 */
export function createHttpReadWorld(options: { contracts?: number } = {}) {
  return serverDb().$transaction((tx) => createWorld(tx, options), { timeout: 60_000 });
}

async function createWorld(db: Tx, { contracts = 3 }: { contracts?: number }) {
  const mine = await createWorkspace(db, { countryCode: "FI" });
  const other = await createWorkspace(db);
  const type = await createTemplateType(db);
  const template = await createTemplate(db, {
    templateTypeId: type.id,
    workspaceIds: [mine.id, other.id],
    deliveryChannels: ["email", "sms"],
    dataFields: [{ name: "Start", customId: "start" }, { name: "Term", defaultValue: "12" }, { name: "Fee" }],
  });
  const otherTemplate = await createTemplate(db, { workspaceIds: [other.id] });
  const editor = await createUser(db, { memberships: [{ workspaceId: mine.id, role: "editor" }] });
  const viewer = await createUser(db, { memberships: [{ workspaceId: mine.id, role: "viewer" }] });
  const outsider = await createUser(db, { memberships: [{ workspaceId: other.id, role: "editor" }] });
  const made = [];
  for (let i = 0; i < contracts; i++) {
    made.push(
      await createContract(db, {
        workspaceId: mine.id,
        templateId: template.id,
        name: `Deal ${String.fromCharCode(90 - i)}`, // Z, Y, X…: name order is the reverse of id order
        state: i === 0 ? "signed" : "draft",
        owner: editor,
        counterparties: [
          { type: "company", name: "Buyer AB", participants: [{ name: "Ann" }, { name: "Bo" }] },
          { type: "individual", participant: { name: "Cecilia", identificationNumber: "19800101-1234" } },
        ],
      }),
    );
  }
  const hidden = await createContract(db, { workspaceId: other.id, templateId: otherTemplate.id, owner: outsider });
  return { workspaces: { mine, other }, type, templates: { template, otherTemplate }, users: { editor, viewer, outsider }, contracts: made, hidden };
}
