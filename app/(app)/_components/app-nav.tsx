"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export const NAV_ITEMS: readonly { href: string; label: string; adminOnly?: true }[] = [
  { href: "/dashboard", label: "Dashboard" },
  { href: "/contracts", label: "Contracts" },
  { href: "/contracts/new", label: "New contract" },
  { href: "/template-types", label: "Template types" },
  { href: "/templates", label: "Templates" },
  { href: "/workspaces", label: "Workspaces" },
  { href: "/users", label: "Users" },
  { href: "/settings/api-tokens", label: "API tokens" },
  { href: "/settings/calendar-feed", label: "Calendar feed" },
  { href: "/outbox", label: "Outbox", adminOnly: true },
  { href: "/settings/webhooks", label: "Webhooks", adminOnly: true },
  { href: "/api-reference", label: "API reference" },
];

/** The item for `pathname`: the longest href it is, or lies under (`/contracts/7` → Contracts). */
function currentHref(pathname: string): string | undefined {
  return NAV_ITEMS.map((item) => item.href)
    .filter((href) => pathname === href || pathname.startsWith(`${href}/`))
    .sort((a, b) => b.length - a.length)[0];
}

/** Items marked `adminOnly` are left out for other users (their pages refuse them too). */
export function AppNav({ isAdmin }: { isAdmin: boolean }) {
  const current = currentHref(usePathname());
  const items = NAV_ITEMS.filter((item) => isAdmin || !item.adminOnly);
  return (
    <nav aria-label="Main">
      <ul className="flex gap-1 overflow-x-auto md:flex-col md:overflow-visible">
        {items.map((item) => {
          const active = item.href === current;
          return (
            <li key={item.href} className="shrink-0">
              <Link
                href={item.href}
                aria-current={active ? "page" : undefined}
                className={`block rounded-md px-3 py-2 text-sm font-medium ${
                  active ? "bg-blue-50 text-blue-800" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                }`}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
