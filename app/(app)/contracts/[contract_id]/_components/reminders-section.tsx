"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ReminderSettingsForm } from "@/components/reminder-settings-form";
import { fetchJson } from "@/lib/client/fetch-json";
import { methodOf, pathOf, v1Queries } from "@/lib/client/v1";
import type { TContractReminderSettings } from "@/lib/schemas/reminder-settings";

/** The contract's reminders (docs/web-app.md "Reminders"): its own settings, else the workspace's. */
export function RemindersSection({ contractId, editable }: { contractId: number; editable: boolean }) {
  const queryClient = useQueryClient();
  const queryKey = [...v1Queries.contract(contractId).queryKey, "reminder_settings"];
  const settings = useQuery({
    queryKey,
    queryFn: ({ signal }) => fetchJson<TContractReminderSettings>(pathOf("getContractReminderSettings", { contract_id: contractId }), { signal }),
  });
  return (
    <section aria-labelledby="reminders-title" className="mt-8">
      <h2 id="reminders-title" className="text-lg font-semibold text-slate-900">
        Reminders
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Signatories who have not decided get reminders by e-mail, and one warning before the signing period ends. Leave a field empty to use the
        workspace&apos;s default.
      </p>
      <div className="mt-3">
        {settings.data ? (
          <ReminderSettingsForm
            values={settings.data}
            defaults={settings.data.workspace_defaults}
            editable={editable}
            save={async (changes) => {
              const saved = await fetchJson<TContractReminderSettings>(pathOf("updateContractReminderSettings", { contract_id: contractId }), {
                method: methodOf("updateContractReminderSettings"),
                body: JSON.stringify(changes),
              });
              queryClient.setQueryData(queryKey, saved);
            }}
          />
        ) : settings.isError ? (
          <p role="alert" className="text-sm text-red-800">
            The reminder settings could not be loaded: {settings.error.message}
          </p>
        ) : (
          <p className="text-sm text-slate-600">Loading…</p>
        )}
      </div>
    </section>
  );
}
