// Where most service tests start: a fresh database of the file's own, with a workspace and a
// template offered in it (lib/db/seed/factories.ts makes the rows), and the people who act in it.
import type { PrismaClient } from "@/lib/db";
import { createUser, createWorkspaceWithTemplate } from "@/lib/db/seed/factories";
import type { TUserActor } from "@/lib/domain/actor";
import { createTestDatabase } from "@/test/helpers/db";
import { actorOf } from "@/test/services/read-fixtures";

export async function createTestWorld<R extends "editor" | "viewer" = never>(input: Parameters<typeof createWorkspaceWithTemplate<R>>[1] = {}) {
  const db = await createTestDatabase();
  const { workspace, template, members } = await createWorkspaceWithTemplate(db.prisma, input);
  return { db, ws: workspace, template, members };
}

/** An admin acting through the API (by default "Olga Owner", the owner side's organizer in the contracts she makes). */
export async function createStaff(db: PrismaClient, name = "Olga Owner"): Promise<TUserActor> {
  return actorOf(db, await createUser(db, { name, isAdmin: true }));
}

/** A user actor as createContract's `owner`. */
export const ownerOf = (actor: TUserActor) => ({ id: actor.userId, name: actor.name, email: actor.email });
