"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { ZCreateApiTokenRequestSchema, type TCreateApiTokenResponse } from "@/lib/schemas/api-token";
import { asSentence } from "@/components/problems";
import { apiTokensQueryKey, createApiToken, RequestError } from "./api-tokens-client";

type TFormInput = z.input<typeof ZCreateApiTokenRequestSchema>;
type TFormOutput = z.output<typeof ZCreateApiTokenRequestSchema>;

export function CreateTokenForm({ onCreated }: { onCreated: (created: TCreateApiTokenResponse) => void }) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<TFormInput, unknown, TFormOutput>({ resolver: zodResolver(ZCreateApiTokenRequestSchema), defaultValues: { name: "" } });

  const create = useMutation({
    mutationFn: createApiToken,
    onSuccess: (created) => {
      reset();
      onCreated(created);
      return queryClient.invalidateQueries({ queryKey: apiTokensQueryKey });
    },
    onError: (error) => {
      // The server's word on the name goes next to the field; anything else above the form.
      const problem = error instanceof RequestError ? error.parameterProblems.name?.[0] : undefined;
      setError(problem ? "name" : "root", { message: problem ?? error.message });
    },
  });

  // One sentence next to the field (docs/web-app.md "Messages"), the schema's or the server's.
  const nameError = errors.name?.message === undefined ? undefined : asSentence(errors.name.message);
  return (
    <form onSubmit={handleSubmit((values) => create.mutate(values))} noValidate className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="text-base font-semibold text-slate-900">Create a token</h2>
      {errors.root?.message ? (
        <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {asSentence(errors.root.message)}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap items-start gap-3">
        <div className="min-w-64 flex-1">
          <label htmlFor="token-name" className="block text-sm font-medium text-slate-800">
            Name
          </label>
          <input
            id="token-name"
            type="text"
            autoComplete="off"
            placeholder="e.g. CRM integration"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "token-name-error token-name-hint" : "token-name-hint"}
            className={`mt-1 block w-full rounded-md border px-3 py-2 text-sm shadow-sm ${nameError ? "border-red-600" : "border-slate-300"}`}
            {...register("name")}
          />
          {nameError ? (
            <p id="token-name-error" className="mt-1 text-sm text-red-700">
              {nameError}
            </p>
          ) : null}
          <p id="token-name-hint" className="mt-1 text-xs text-slate-500">
            What the token is for, so you know what breaks when you revoke it.
          </p>
        </div>
        <button
          type="submit"
          disabled={create.isPending}
          className="mt-6 rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
        >
          {create.isPending ? "Creating…" : "Create token"}
        </button>
      </div>
    </form>
  );
}
