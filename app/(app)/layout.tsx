import Link from "next/link";
import type { ReactNode } from "react";
import { requireSessionUser } from "@/lib/auth/require-session";
import { AppNav } from "./_components/app-nav";
import { QueryProvider } from "./_components/query-provider";
import { UserMenu } from "./_components/user-menu";

// Every page of the staff app: signed-in users only (the sign-in page lives outside this group).
export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireSessionUser();
  return (
    <QueryProvider>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 md:px-6">
          <Link href="/contracts" className="text-lg font-semibold tracking-tight text-slate-900">
            Contracts admin
          </Link>
          <UserMenu name={user.name} email={user.email} />
        </div>
      </header>
      <div className="md:flex">
        <aside className="border-b border-slate-200 bg-white px-2 py-2 md:min-h-[calc(100vh-4rem)] md:w-56 md:shrink-0 md:border-b-0 md:border-r md:px-3 md:py-4">
          <AppNav isAdmin={user.isAdmin} />
        </aside>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none md:px-8">
          {children}
        </main>
      </div>
    </QueryProvider>
  );
}
