import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { LoadingState } from "@/components/states";
import { requireSessionUser } from "@/lib/auth/require-session";
import { mailIsSent } from "@/lib/services/mail/mail-is-sent";
import { OutboxTable } from "./_components/outbox-table";

export const metadata: Metadata = { title: "Outbox" };

export default async function OutboxPage() {
  const user = await requireSessionUser({ next: "/outbox" });
  if (!user.isAdmin) return <AdminsOnly />;
  const sends = mailIsSent();
  return (
    <div className="max-w-6xl">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Outbox</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600">
        The e-mail this service writes to participants: invitations to sign, e-mail codes, and notices when a contract is
        signed or declined. Newest first.
      </p>
      <div role="note" className={`mt-4 max-w-3xl rounded-md border px-4 py-3 text-sm ${sends ? "border-blue-200 bg-blue-50 text-blue-900" : "border-amber-200 bg-amber-50 text-amber-900"}`}>
        {sends ? (
          <p>
            <strong className="font-semibold">This deployment sends mail</strong> through its SMTP server. Signing links and
            codes went to their recipients only, so they are not shown here.
          </p>
        ) : (
          <p>
            <strong className="font-semibold">This deployment sends no mail</strong> (no SMTP server is configured): messages
            are kept here instead. Their signing links and codes are shown so you can open them yourself; set{" "}
            <code className="font-mono">SMTP_URL</code> to send them.
          </p>
        )}
      </div>
      <div className="mt-6">
        <Suspense fallback={<LoadingState label="Loading messages…" />}>
          <OutboxTable />
        </Suspense>
      </div>
    </div>
  );
}

function AdminsOnly() {
  return (
    <section aria-labelledby="admins-only-title" className="max-w-xl">
      <p className="text-sm font-medium text-slate-500">403 · Forbidden</p>
      <h1 id="admins-only-title" className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">
        Admins only
      </h1>
      <p className="mt-2 text-sm text-slate-600">
        The Outbox holds every participant&apos;s mail, and on a deployment that sends none their signing links, so only
        administrators can see it.
      </p>
      <p className="mt-6">
        <Link href="/contracts" className="text-sm font-medium text-blue-700 underline hover:text-blue-900">
          Back to contracts
        </Link>
      </p>
    </section>
  );
}
