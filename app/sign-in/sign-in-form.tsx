"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";

// The body of better-auth's /api/auth/sign-in/email; it checks the same again.
const ZSignInFormSchema = z.object({
  email: z.string().trim().min(1, "Enter your e-mail address").pipe(z.email("Enter a valid e-mail address")),
  password: z.string().min(1, "Enter your password"),
});
type TSignInForm = z.infer<typeof ZSignInFormSchema>;

/** What to tell the user for a refused sign-in. */
async function failureMessage(res: Response): Promise<string> {
  if (res.status === 429) {
    const seconds = Number(res.headers.get("retry-after") ?? res.headers.get("x-retry-after"));
    return Number.isFinite(seconds) && seconds > 0
      ? `Too many attempts, try again in ${Math.ceil(seconds)} seconds.`
      : "Too many attempts, try again in a minute.";
  }
  const body = (await res.json().catch(() => null)) as { code?: string } | null;
  if (res.status === 401 || body?.code === "INVALID_EMAIL_OR_PASSWORD") return "Wrong e-mail or password.";
  if (res.status >= 500) return "Sign-in is not available right now. Try again shortly.";
  return "Sign-in failed. Reload the page and try again.";
}

export function SignInForm({ next }: { next: string }) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<TSignInForm>({ resolver: zodResolver(ZSignInFormSchema), defaultValues: { email: "", password: "" } });

  async function onSubmit(values: TSignInForm) {
    setFailure(null);
    let res: Response;
    try {
      res = await fetch("/api/auth/sign-in/email", {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(values),
      });
    } catch {
      setFailure("Could not reach the server. Check your connection and try again.");
      return;
    }
    if (res.ok) {
      // A full load: the app shell renders with the new session cookie.
      window.location.assign(next);
      return new Promise<void>(() => {}); // keep the button busy until the page changes
    }
    setFailure(await failureMessage(res));
    setFocus("password");
  }

  const fieldClass = (invalid: boolean) =>
    `mt-1 block w-full rounded-md border px-3 py-2 text-sm shadow-sm ${invalid ? "border-red-600" : "border-slate-300"}`;

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
      <div aria-live="assertive">
        {failure ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {failure}
          </p>
        ) : null}
      </div>
      <div>
        <label htmlFor="sign-in-email" className="block text-sm font-medium text-slate-800">
          E-mail
        </label>
        <input
          id="sign-in-email"
          type="email"
          autoComplete="username"
          autoFocus
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? "sign-in-email-error" : undefined}
          className={fieldClass(Boolean(errors.email))}
          {...register("email")}
        />
        {errors.email ? (
          <p id="sign-in-email-error" className="mt-1 text-sm text-red-700">
            {errors.email.message}
          </p>
        ) : null}
      </div>
      <div>
        <label htmlFor="sign-in-password" className="block text-sm font-medium text-slate-800">
          Password
        </label>
        <input
          id="sign-in-password"
          type="password"
          autoComplete="current-password"
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? "sign-in-password-error" : undefined}
          className={fieldClass(Boolean(errors.password))}
          {...register("password")}
        />
        {errors.password ? (
          <p id="sign-in-password-error" className="mt-1 text-sm text-red-700">
            {errors.password.message}
          </p>
        ) : null}
      </div>
      <button
        type="submit"
        disabled={isSubmitting}
        className="w-full rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {isSubmitting ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
