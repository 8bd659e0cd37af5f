import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import type { TReminderSettings } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { getWorkspaceReminderSettings } from "@/lib/services/reminders/get-workspace-reminder-settings";
import { updateWorkspaceReminderSettings } from "@/lib/services/reminders/update-workspace-reminder-settings";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getWorkspaceReminderSettings, async ({ prisma, actor, params }) => {
    return json((await getWorkspaceReminderSettings({ db: prisma, actor, workspaceId: params.workspace_id })) satisfies TReminderSettings);
  }),
  handle(ENDPOINTS.updateWorkspaceReminderSettings, async ({ prisma, actor, params, body, requestId }) => {
    return json((await updateWorkspaceReminderSettings({ db: prisma, actor, workspaceId: params.workspace_id, request: body, requestId })) satisfies TReminderSettings);
  }),
);
