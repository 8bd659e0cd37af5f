import type { Metadata } from "next";
import { connection } from "next/server";

export const metadata: Metadata = { title: "Link not found", robots: { index: false, follow: false } };

/** A signing link that does not open a contract (unknown, replaced, or its contract no longer pending). Rendered per request: see app/not-found.tsx. */
export default async function SigningLinkNotFound() {
  await connection();
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-10">
      <section className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <p className="text-sm font-medium text-slate-600">404 · Not found</p>
        <h1 className="mt-1 text-2xl font-semibold text-slate-900">This link does not work</h1>
        <p className="mt-2 text-slate-700">
          The contract may have been signed, declined, withdrawn or expired, or you were sent a newer link. If you still need to sign, ask the person who
          sent you the contract for a new invitation.
        </p>
      </section>
    </main>
  );
}
