import { describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import {
  assertAdmin,
  assertCanWrite,
  canReadWorkspace,
  canWriteWorkspace,
  visibleWorkspaceIds,
  workspaceScope,
} from "@/lib/domain/access";

const user = (roles: [number, "editor" | "viewer"][], isAdmin = false): Actor => ({
  kind: "user",
  userId: 1,
  email: "u@example.com",
  name: "U",
  isAdmin,
  roles: new Map(roles),
  via: "api_token",
  apiTokenId: 1,
});
const anonymous: Actor = { kind: "anonymous_admin", isAdmin: true, via: "api_token", apiTokenId: 1 };
const member = user([
  [1, "editor"],
  [2, "viewer"],
]);

function thrown(fn: () => void): DomainError | undefined {
  try {
    fn();
  } catch (error) {
    return error as DomainError;
  }
  return undefined;
}

describe("permissions", () => {
  it("lets admins see and change every workspace", () => {
    for (const admin of [anonymous, user([], true)]) {
      expect(visibleWorkspaceIds(admin)).toBeNull();
      expect(workspaceScope(admin)).toEqual({});
      expect(canReadWorkspace(admin, 99)).toBe(true);
      expect(canWriteWorkspace(admin, 99)).toBe(true);
      expect(thrown(() => assertCanWrite(admin, 99))).toBeUndefined();
      expect(thrown(() => assertAdmin(admin))).toBeUndefined();
    }
  });

  it("limits other users to their workspaces, writing only as editor", () => {
    expect(visibleWorkspaceIds(member)).toEqual([1, 2]);
    expect(workspaceScope(member)).toEqual({ workspaceId: { in: [1, 2] } });
    expect([canReadWorkspace(member, 1), canReadWorkspace(member, 2), canReadWorkspace(member, 3)]).toEqual([true, true, false]);
    expect([canWriteWorkspace(member, 1), canWriteWorkspace(member, 2), canWriteWorkspace(member, 3)]).toEqual([true, false, false]);
  });

  it("answers 403 for a viewer, 404 for a workspace out of sight", () => {
    expect(thrown(() => assertCanWrite(member, 1))).toBeUndefined();
    expect(thrown(() => assertCanWrite(member, 2))).toMatchObject({ key: "role_cannot_write", status: 403 });
    expect(thrown(() => assertCanWrite(member, 3))).toMatchObject({ key: "resource_not_found", status: 404 });
    expect(thrown(() => assertAdmin(member))).toMatchObject({ key: "admin_only", status: 403 });
  });

  it("shows nothing to a user without workspaces", () => {
    expect(visibleWorkspaceIds(user([]))).toEqual([]);
  });
});
