import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TPagination } from "@/lib/schemas";
import { getDataField } from "@/test/oracle/reads";
import { listDataFields } from "@/test/oracle/reads";
import { getParticipant } from "@/test/oracle/reads";
import { getParty } from "@/test/oracle/reads";
import { listParties } from "@/test/oracle/reads";
import { getTemplateType } from "@/test/oracle/reads";
import { listTemplateTypes } from "@/test/oracle/reads";
import { getTemplate } from "@/lib/services/templates/get-template";
import { listTemplates } from "@/lib/services/templates/list-templates";
import { listUsers } from "@/lib/services/users/list-users";
import { listWorkspaces } from "@/lib/services/workspaces/list-workspaces";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { anonymousAdmin, createReadWorld, rejection, type TReadWorld } from "@/test/services/read-fixtures";

let db: TestDatabase;
let w: TReadWorld;
beforeAll(async () => {
  db = await createTestDatabase();
  w = await createReadWorld(db.prisma);
});
afterAll(() => db.cleanup());

const firstPage: TPagination = { limit: 100, offset: 0 };
const notFound = { key: "resource_not_found", status: 404 };

describe("workspaces and users", () => {
  it("lists only the workspaces the actor has a role in", async () => {
    const mine = await listWorkspaces({ db: db.prisma, actor: w.actors.editor, pagination: firstPage });
    expect(mine.count).toBe(1);
    expect(mine.rows.map((r) => r.id)).toEqual([w.workspaces.a.id]);
    const all = await listWorkspaces({ db: db.prisma, actor: w.actors.admin, pagination: firstPage });
    expect(all.rows.map((r) => r.id)).toEqual([w.workspaces.a.id, w.workspaces.b.id]);
  });

  it("shows a member the users of their workspaces and themselves; an admin everyone", async () => {
    const { users } = w;
    const mine = await listUsers({ db: db.prisma, actor: w.actors.editor, pagination: firstPage });
    expect(mine.rows.map((r) => r.id)).toEqual([users.editor.id, users.viewer.id]);
    expect(mine.count).toBe(2);
    const all = await listUsers({ db: db.prisma, actor: anonymousAdmin, pagination: firstPage });
    expect(all.rows.map((r) => r.id)).toEqual(Object.values(users).map((u) => u.id).sort((x, y) => x - y));
    expect(all.rows.find((r) => r.id === users.inactive.id)?.active).toBe(false);
    // Only the listed columns are read: nothing of sign-in or sessions.
    expect(Object.keys(all.rows[0]!).sort()).toEqual(["active", "email", "id", "isAdmin", "name", "phoneNumber", "title"]);
  });

  it("pages users with limit and offset", async () => {
    const page = await listUsers({ db: db.prisma, actor: anonymousAdmin, pagination: { limit: 2, offset: 4 } });
    expect(page.count).toBe(5);
    expect(page.rows).toHaveLength(1);
  });
});

describe("templates and template types", () => {
  it("lists the templates usable in the actor's workspaces, optionally in one of them", async () => {
    const mine = await listTemplates({ db: db.prisma, actor: w.actors.editor, query: { ...firstPage } });
    expect(mine.rows.map((r) => r.name)).toEqual(["Shared"]);
    const inB = await listTemplates({ db: db.prisma, actor: anonymousAdmin, query: { ...firstPage, workspace_id: w.workspaces.b.id } });
    expect(inB.rows.map((r) => r.name)).toEqual(["Shared", "Only B"]);
    const hidden = await listTemplates({ db: db.prisma, actor: w.actors.editor, query: { ...firstPage, workspace_id: w.workspaces.b.id } });
    expect(hidden).toEqual({ count: 0, rows: [] });
  });

  it("gets a visible template with its options in order; another workspace's is a 404", async () => {
    const row = await getTemplate({ db: db.prisma, actor: w.actors.viewer, templateId: w.templates.shared.id });
    expect(row.deliveryChannels.map((o) => o.name)).toEqual(["email", "sms"]);
    expect(row.templateTypeId).toBe(w.templateType.id);
    expect(await rejection(getTemplate({ db: db.prisma, actor: w.actors.viewer, templateId: w.templates.onlyB.id }))).toEqual(notFound);
  });

  it("lets everyone read every template type", async () => {
    const { count, rows } = await listTemplateTypes({ db: db.prisma, pagination: firstPage });
    expect(count).toBe(1);
    expect((await getTemplateType({ db: db.prisma, templateTypeId: rows[0]!.id })).name).toBe("NDA");
    expect(await rejection(getTemplateType({ db: db.prisma, templateTypeId: 999_999 }))).toEqual(notFound);
  });
});

describe("a contract's parties, participants and data fields", () => {
  it("lists the parties with participants, owner side first; limit=all returns them all", async () => {
    const all = await listParties({ db: db.prisma, actor: w.actors.viewer, contractId: w.contracts.a.id, pagination: { limit: "all", offset: 0 } });
    expect(all.count).toBe(3);
    expect(all.rows.map((p) => [p.type, p.myParty, p.participants.length])).toEqual([
      ["company", true, 1],
      ["company", false, 2],
      ["individual", false, 1],
    ]);
    const rest = await listParties({ db: db.prisma, actor: w.actors.viewer, contractId: w.contracts.a.id, pagination: { limit: "all", offset: 2 } });
    expect(rest.rows.map((p) => p.type)).toEqual(["individual"]);
  });

  it("answers 404 for the children of a contract the actor cannot see", async () => {
    const args = { db: db.prisma, actor: w.actors.editor, contractId: w.contracts.b.id };
    expect(await rejection(listParties({ ...args, pagination: firstPage }))).toEqual(notFound);
    expect(await rejection(listDataFields({ ...args, pagination: firstPage }))).toEqual(notFound);
  });

  it("gets a party and a participant only along their own contract", async () => {
    const partyOfA = (await listParties({ db: db.prisma, actor: anonymousAdmin, contractId: w.contracts.a.id, pagination: firstPage })).rows[1]!;
    const party = await getParty({ db: db.prisma, actor: w.actors.editor, contractId: w.contracts.a.id, partyId: partyOfA.id });
    expect(party.name).toBe("Buyer AB");
    const participant = await getParticipant({
      db: db.prisma,
      actor: w.actors.editor,
      contractId: w.contracts.a.id,
      partyId: party.id,
      participantId: party.participants[1]!.id,
    });
    expect(participant.name).toBe("Bo");
    // Right ids, wrong chain: the party is not the contract's, the participant not the party's.
    expect(await rejection(getParty({ db: db.prisma, actor: anonymousAdmin, contractId: w.contracts.b.id, partyId: party.id }))).toEqual(notFound);
    const ownerParty = (await listParties({ db: db.prisma, actor: anonymousAdmin, contractId: w.contracts.a.id, pagination: firstPage })).rows[0]!;
    expect(
      await rejection(
        getParticipant({ db: db.prisma, actor: anonymousAdmin, contractId: w.contracts.a.id, partyId: ownerParty.id, participantId: participant.id }),
      ),
    ).toEqual(notFound);
  });

  it("lists the data fields copied from the template, and gets one only through its contract", async () => {
    const { count, rows } = await listDataFields({ db: db.prisma, actor: w.actors.viewer, contractId: w.contracts.a.id, pagination: { limit: 1, offset: 1 } });
    expect(count).toBe(2);
    expect(rows.map((r) => [r.name, r.value])).toEqual([["Term", "12"]]);
    const field = await getDataField({ db: db.prisma, actor: w.actors.viewer, contractId: w.contracts.a.id, dataField: { id: rows[0]!.id } });
    expect(field.id).toBe(rows[0]!.id);
    expect(await rejection(getDataField({ db: db.prisma, actor: anonymousAdmin, contractId: w.contracts.b.id, dataField: { id: field.id } }))).toEqual(notFound);
  });
});
