// A small world for the read-service tests: two workspaces, people with different roles, and a
// contract in each workspace. Every test file builds its own in its own database.
import { loadUserActor } from "@/lib/api/auth";
import type { Actor, TUserActor } from "@/lib/domain/actor";
import type { PrismaClient } from "@/lib/db";
import { DomainError } from "@/lib/domain/errors";
import {
  createContract,
  createTemplate,
  createTemplateType,
  createUser,
  createWorkspace,
} from "@/lib/db/seed/factories";

export const anonymousAdmin: Actor = { kind: "anonymous_admin", isAdmin: true, via: "api_token", apiTokenId: 1 };

export async function actorOf(db: PrismaClient, user: { id: number }): Promise<TUserActor> {
  const actor = await loadUserActor(db, { id: user.id }, { via: "api_token", apiTokenId: null });
  if (!actor) throw new Error(`user ${user.id} is not an active user`);
  return actor;
}

export async function createReadWorld(db: PrismaClient) {
  const a = await createWorkspace(db, { name: "Alpha" });
  const b = await createWorkspace(db, { name: "Beta" });
  const type = await createTemplateType(db, { name: "NDA" });
  const shared = await createTemplate(db, {
    name: "Shared",
    templateTypeId: type.id,
    workspaceIds: [a.id, b.id],
    deliveryChannels: ["email", "sms"],
    twoStepMethods: ["none", "sms"],
    dataFields: [{ name: "Start", customId: "start", placeholder: "YYYY-MM-DD" }, { name: "Term", defaultValue: "12" }],
  });
  const onlyB = await createTemplate(db, { name: "Only B", workspaceIds: [b.id] });

  const admin = await createUser(db, { isAdmin: true });
  const editor = await createUser(db, { memberships: [{ workspaceId: a.id, role: "editor" }] });
  const viewer = await createUser(db, { memberships: [{ workspaceId: a.id, role: "viewer" }] });
  const outsider = await createUser(db, { memberships: [{ workspaceId: b.id, role: "editor" }] });
  const inactive = await createUser(db, { active: false });

  const contractA = await createContract(db, {
    workspaceId: a.id,
    templateId: shared.id,
    name: "Alpha deal",
    owner: editor,
    counterparties: [
      { type: "company", name: "Buyer AB", countryCode: "SE", identificationNumber: "556677-8899", participants: [{ name: "Ann" }, { name: "Bo", signatory: false }] },
      { type: "individual", participant: { name: "Cecilia", identificationNumber: "19800101-1234" } },
    ],
  });
  const contractB = await createContract(db, {
    workspaceId: b.id,
    templateId: onlyB.id,
    name: "Beta deal",
    owner: outsider,
    counterparties: [{ type: "company", name: "Seller AS", participants: [{ name: "Dag" }] }],
  });

  return {
    workspaces: { a, b },
    templateType: type,
    templates: { shared, onlyB },
    users: { admin, editor, viewer, outsider, inactive },
    contracts: { a: contractA, b: contractB },
    actors: {
      admin: await actorOf(db, admin),
      editor: await actorOf(db, editor),
      viewer: await actorOf(db, viewer),
      outsider: await actorOf(db, outsider),
    },
  };
}

export type TReadWorld = Awaited<ReturnType<typeof createReadWorld>>;

/** The DomainError a promise rejects with, as `{ key, status }` for compact assertions. */
export async function rejection(promise: Promise<unknown>): Promise<{ key: string; status: number }> {
  const { key, status } = await failure(promise);
  return { key, status };
}

/** The DomainError a call fails with, in the terms a client sees (any other error is thrown on). */
export async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { key: error.key, status: error.status, problems: error.parameterProblems, headers: error.headers };
  }
  throw new Error("expected the promise to reject");
}
