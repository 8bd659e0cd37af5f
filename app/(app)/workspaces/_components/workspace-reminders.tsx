"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ReminderSettingsForm } from "@/components/reminder-settings-form";
import { fetchJson } from "@/lib/client/fetch-json";
import { methodOf, pathOf, v1Queries } from "@/lib/client/v1";
import type { TReminderSettings } from "@/lib/schemas/reminder-settings";

/** A workspace's reminder defaults (docs/web-app.md "Reminders"), for the workspaces whose contracts the user may change. */
export function WorkspaceReminders() {
  const workspaces = useQuery(v1Queries.allWorkspaces());
  const editable = workspaces.data?.filter((w) => w._permissions["contract:create"]) ?? [];
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  const workspaceId = chosen ?? editable[0]?.id;
  const queryClient = useQueryClient();
  const queryKey = ["v1", "workspaces", workspaceId, "reminder_settings"];
  const settings = useQuery({
    queryKey,
    enabled: workspaceId !== undefined,
    queryFn: ({ signal }) => fetchJson<TReminderSettings>(pathOf("getWorkspaceReminderSettings", { workspace_id: workspaceId! }), { signal }),
  });
  if (editable.length === 0) return null;
  return (
    <section aria-labelledby="reminder-defaults" className="mt-10 max-w-3xl">
      <h2 id="reminder-defaults" className="text-lg font-semibold text-slate-900">
        Reminder defaults
      </h2>
      <p className="mt-1 text-sm text-slate-600">Every contract of the workspace gets these reminders unless its own page sets others.</p>
      <label htmlFor="reminder-workspace" className="mt-3 block text-sm font-medium text-slate-800">
        Workspace
      </label>
      <select
        id="reminder-workspace"
        value={workspaceId}
        onChange={(e) => setChosen(Number(e.currentTarget.value))}
        className="mt-1 block w-56 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
      >
        {editable.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
      <div className="mt-3">
        {settings.data ? (
          <ReminderSettingsForm
            key={workspaceId}
            values={settings.data}
            editable
            save={async (changes) => {
              const saved = await fetchJson<TReminderSettings>(pathOf("updateWorkspaceReminderSettings", { workspace_id: workspaceId! }), {
                method: methodOf("updateWorkspaceReminderSettings"),
                body: JSON.stringify(changes),
              });
              queryClient.setQueryData(queryKey, saved);
            }}
          />
        ) : null}
      </div>
    </section>
  );
}
