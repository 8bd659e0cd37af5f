import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";

export const metadata: Metadata = { title: "Page not found" };

/**
 * The answer for a URL no page matches. Rendered per request, not prerendered: pages carry a
 * Content-Security-Policy with a fresh script nonce (proxy.ts), and a page built ahead of time
 * would have scripts without it, which the browser then refuses to run.
 */
export default async function NotFound() {
  await connection();
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-md text-center">
        <p className="text-sm font-medium text-slate-600">404 · Not found</p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">Page not found</h1>
        <p className="mt-2 text-sm text-slate-600">There is no page at this address.</p>
        <p className="mt-6">
          <Link href="/" className="text-sm font-medium text-blue-700 underline hover:text-blue-900">
            Go to the start page
          </Link>
        </p>
      </div>
    </main>
  );
}
