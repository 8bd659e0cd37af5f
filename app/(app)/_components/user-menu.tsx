"use client";

import { useEffect, useState } from "react";

/** The signed-in user's name and the Sign out button. */
export function UserMenu({ name, email }: { name: string; email: string }) {
  const [state, setState] = useState<"idle" | "signing-out" | "failed">("idle");

  useEffect(() => {
    // Once per page load: lets better-auth extend an active session and renew its cookie, which
    // server renders (read-only) cannot do.
    fetch("/api/auth/get-session", { credentials: "same-origin", cache: "no-store" }).catch(() => {});
  }, []);

  async function signOut() {
    setState("signing-out");
    try {
      const res = await fetch("/api/auth/sign-out", {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      if (!res.ok) throw new Error(`sign-out answered ${res.status}`);
      // A full load, so nothing of this user's data stays in memory (query cache, router cache).
      window.location.assign("/sign-in");
    } catch {
      setState("failed");
    }
  }

  return (
    <div className="flex items-center gap-3">
      <div className="text-right text-sm leading-tight">
        <p className="font-medium text-slate-900">{name}</p>
        <p className="text-slate-500">{email}</p>
      </div>
      <button
        type="button"
        onClick={signOut}
        disabled={state === "signing-out"}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-60"
      >
        {state === "signing-out" ? "Signing out…" : "Sign out"}
      </button>
      {state === "failed" ? (
        <p role="alert" className="text-sm text-red-700">
          Sign-out failed. Try again.
        </p>
      ) : null}
    </div>
  );
}
