import Link from "next/link";

/** For an id that names no contract the user can see (the API answers 404 for both). */
export function ContractNotFound() {
  return (
    <section aria-labelledby="contract-not-found-title" className="max-w-xl">
      <p className="text-sm font-medium text-slate-600">404 · Not found</p>
      <h1 id="contract-not-found-title" className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">
        Contract not found
      </h1>
      <p className="mt-2 text-sm text-slate-600">
        There is no contract at this address, or it belongs to a workspace you do not have access to.
      </p>
      <p className="mt-6">
        <Link href="/contracts" className="text-sm font-medium text-blue-700 underline hover:text-blue-900">
          Back to contracts
        </Link>
      </p>
    </section>
  );
}
