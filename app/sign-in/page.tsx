import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { afterSignInPath, getCurrentSessionUser } from "@/lib/auth/require-session";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { next } = await searchParams;
  const target = afterSignInPath(typeof next === "string" ? next : null);
  if (await getCurrentSessionUser()) redirect(target);

  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <h1 className="text-center text-2xl font-semibold tracking-tight text-slate-900">Contracts admin</h1>
        <p className="mt-2 text-center text-sm text-slate-600">Sign in with your work e-mail and password.</p>
        <div className="mt-8 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <SignInForm next={target} />
        </div>
      </div>
    </main>
  );
}
