export type TWorkspaceRole = "editor" | "viewer";

/** Who a request acts as; every permission decision takes one of these. */
export type Actor =
  | {
      kind: "user";
      userId: number;
      email: string;
      name: string;
      isAdmin: boolean;
      /** The user's role per workspace id; admins need none to see everything. */
      roles: Map<number, TWorkspaceRole>;
      via: "api_token" | "session";
      apiTokenId: number | null;
    }
  | { kind: "anonymous_admin"; isAdmin: true; via: "api_token"; apiTokenId: number };

export type TUserActor = Extract<Actor, { kind: "user" }>;

/**
 * Who a change is recorded as: a user or API token (an `Actor`), a participant acting through their
 * signing link (with their name and e-mail as they are when they act: the trail keeps them), or the
 * service itself (a background job such as the overdue check).
 */
export type TAuditActor = Actor | { kind: "signer"; participantId: number; name: string; email: string } | { kind: "system" };

/** How mail a change causes names who made it: the user, or the owner when an anonymous admin token acted. */
export const OWNER_NAME = "The contract's owner";
export const senderNameOf = (actor: Actor): string => (actor.kind === "user" ? actor.name : OWNER_NAME);
