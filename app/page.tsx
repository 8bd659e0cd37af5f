import Link from "next/link";

export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Contracts admin</h1>
      <p className="mt-3 text-slate-600">
        Create contracts from templates, manage their parties and participants, and connect your
        own systems through the <code className="font-mono text-sm">/v1</code> API.
      </p>
      <ul className="mt-8 space-y-2">
        <li>
          <Link className="text-blue-700 underline" href="/v1/ping">
            API status
          </Link>
        </li>
      </ul>
    </main>
  );
}
