import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingState } from "@/components/states";
import { WorkspaceReminders } from "./_components/workspace-reminders";
import { WorkspacesTable } from "./_components/workspaces-table";

export const metadata: Metadata = { title: "Workspaces" };

export default function WorkspacesPage() {
  return (
    <div className="max-w-6xl">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Workspaces</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600">
        The workspaces you can see. Contracts are created in a workspace, by its editors and by admins.
      </p>
      <div className="mt-6">
        <Suspense fallback={<LoadingState label="Loading workspaces…" />}>
          <WorkspacesTable />
        </Suspense>
      </div>
      <WorkspaceReminders />
    </div>
  );
}
