import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingState } from "@/components/states";
import { UsersTable } from "./_components/users-table";

export const metadata: Metadata = { title: "Users" };

export default function UsersPage() {
  return (
    <div className="max-w-6xl">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Users</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600">
        The people who use the service. Admins see everyone; others see the people they share a workspace with.
      </p>
      <div className="mt-6">
        <Suspense fallback={<LoadingState label="Loading users…" />}>
          <UsersTable />
        </Suspense>
      </div>
    </div>
  );
}
