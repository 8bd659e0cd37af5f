// The wizard's reads and its one write, on the same /v1 routes external systems use.

import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import { listAll, listTemplates, methodOf, pathOf } from "@/lib/client/v1";
import type { TContract, TCreateContractRequest } from "@/lib/schemas/contract";
import type { TTemplate } from "@/lib/schemas/template";
import type { TWorkspace } from "@/lib/schemas/workspace";

/** Every template usable in the workspace (normally a handful; all pages, should there be more). */
export const workspaceTemplatesQuery = (workspaceId: number | undefined) =>
  queryOptions({
    queryKey: ["v1", "templates", "all", { workspace_id: workspaceId }],
    queryFn: ({ signal }): Promise<TTemplate[]> =>
      listAll((page, options) => listTemplates({ ...page, workspace_id: workspaceId }, options), { signal }),
    enabled: workspaceId !== undefined,
  });

/** The workspaces where the user may create contracts: the API says so per workspace. */
export const creatableWorkspaces = (workspaces: TWorkspace[]) => workspaces.filter((workspace) => workspace._permissions["contract:create"]);

export const createContract = (request: TCreateContractRequest) =>
  fetchJson<TContract>(pathOf("createContract", {}), { method: methodOf("createContract"), body: JSON.stringify(request) });
