import type { Metadata } from "next";
import { DashboardView } from "./_components/dashboard-view";

export const metadata: Metadata = { title: "Dashboard" };

// The staff's landing page (docs/web-app.md "Dashboard"); its numbers come from /v1/dashboard.
export default function DashboardPage() {
  return (
    <div className="max-w-6xl">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Dashboard</h1>
      <DashboardView />
    </div>
  );
}
