import type { Metadata } from "next";

import { VerifyForm } from "./verify-form";

export const metadata: Metadata = { title: "Verify a signed copy" };

/** Public: anyone holding a sealed copy may check it (no sign-in; docs/security.md "The seal"). */
export default function VerifyPage() {
  return (
    <main className="mx-auto w-full max-w-xl px-4 py-12">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Verify a signed copy</h1>
      <p className="mt-2 text-sm text-slate-600">
        Choose the PDF you received when a contract was signed. This service tells you whether it sealed the file and whether the file is exactly as
        sealed. The file is checked and not kept.
      </p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <VerifyForm />
      </div>
    </main>
  );
}
