import type { Metadata } from "next";
import Link from "next/link";
import { requireSessionUser } from "@/lib/auth/require-session";
import { ApiTokensManager } from "./_components/api-tokens-manager";

export const metadata: Metadata = { title: "API tokens" };

export default async function ApiTokensPage() {
  const user = await requireSessionUser({ next: "/settings/api-tokens" });
  if (!user.isAdmin) return <AdminsOnly />;
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">API tokens</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600">
        External systems call the <code className="font-mono">/v1</code> API with a token in the{" "}
        <code className="font-mono">x-service-api-token</code> header, acting for the user their{" "}
        <code className="font-mono">x-service-user-email</code> header names (or as the anonymous admin without
        it). Only a token&apos;s hash is stored: it is shown once, when it is created.
      </p>
      <ApiTokensManager />
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
        API tokens give external systems access to every workspace, so only administrators can create, see or
        revoke them. Ask an administrator if a system you work with needs one.
      </p>
      <p className="mt-6">
        <Link href="/contracts" className="text-sm font-medium text-blue-700 underline hover:text-blue-900">
          Back to contracts
        </Link>
      </p>
    </section>
  );
}
