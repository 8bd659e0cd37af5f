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
