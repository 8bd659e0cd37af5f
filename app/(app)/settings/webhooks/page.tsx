import type { Metadata } from "next";
import Link from "next/link";
import { requireSessionUser } from "@/lib/auth/require-session";
import { WebhooksManager } from "./_components/webhooks-manager";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const user = await requireSessionUser({ next: "/settings/webhooks" });
  if (!user.isAdmin) {
    return (
      <section aria-labelledby="admins-only-title" className="max-w-xl">
        <p className="text-sm font-medium text-slate-500">403 · Forbidden</p>
        <h1 id="admins-only-title" className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">
          Admins only
        </h1>
        <p className="mt-2 text-sm text-slate-600">Webhooks send every change in every workspace to another system, so only administrators manage them.</p>
        <p className="mt-6">
          <Link href="/contracts" className="text-sm font-medium text-blue-700 underline hover:text-blue-900">
            Back to contracts
          </Link>
        </p>
      </section>
    );
  }
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Webhooks</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600">
        Each change the audit trail records (contracts created, published, signed, declined, overdue or deleted; parties,
        participants and data fields changed) is POSTed to the subscriptions below, signed as the{" "}
        <a className="underline" href="https://www.standardwebhooks.com/">Standard Webhooks</a> specification says. Failed
        deliveries are retried for 24 hours; a subscription that keeps failing for days is paused.
      </p>
      <WebhooksManager />
    </div>
  );
}
