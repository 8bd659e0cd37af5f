"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { FormProvider, useForm, useWatch, type FieldPath } from "react-hook-form";
import { LoadingState } from "@/components/states";
import { RequestError } from "@/lib/client/fetch-json";
import { fieldProblem } from "@/components/problems";
import { settingOfPath, termFormOf, termProblemSentence } from "@/components/term-fields/term-values";
import { v1Queries } from "@/lib/client/v1";
import type { TContract, TCreateContractRequest } from "@/lib/schemas/contract";
import type { TAvailableOptions } from "@/lib/schemas/template";
import { BasicsStep } from "./basics-step";
import { CounterpartiesStep } from "./counterparties-step";
import { FormTried, touchEveryField } from "./form-fields";
import type { TParticipantPath } from "./participant-editor";
import { ReviewStep } from "./review-step";
import { ServerProblems } from "./server-problems";
import { StepIndicator } from "./step-indicator";
import {
  adaptOptions,
  EMPTY_WIZARD,
  participantsWithPaths,
  STEP_FIELDS,
  STEPS,
  stepOfPath,
  valuesToSend,
  wizardResolver,
  type TStep,
  type TWizardValues,
} from "./wizard-form";
import { DocumentPdfField } from "./document-pdf-field";
import { createContract, creatableWorkspaces, uploadContractPdf, workspaceTemplatesQuery } from "./wizard-queries";

type TServerFailure = { detail: string; problems: Record<string, string[]> };
/** What gets focus after the step changes: the step's heading, or the server's problems (and their first field). */
type TFocusRequest = { target: "heading" } | { target: "problems"; field?: string } | { target: "first_problem" };

const primaryButton = "rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60";
const secondaryButton = "rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50";

/**
 * The creation wizard: one react-hook-form form across three steps, so going back and forth keeps
 * everything typed; each step is validated (with the shared schemas) before the next one opens.
 */
export function ContractWizard() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<TStep>(1);
  const [serverFailure, setServerFailure] = useState<TServerFailure | null>(null);
  const [focusRequest, setFocusRequest] = useState<TFocusRequest | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const problemsRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // The step whose Next (or Create) found problems: its empty fields say so once left.
  const [triedStep, setTriedStep] = useState<TStep | null>(null);

  // The rules depend on the chosen template; the resolver reads its options when it runs.
  const availableRef = useRef<TAvailableOptions | undefined>(undefined);
  const [resolver] = useState(() => wizardResolver(() => availableRef.current));
  const form = useForm<TWizardValues, unknown, TCreateContractRequest>({ resolver, defaultValues: EMPTY_WIZARD, mode: "onTouched" });
  const [workspaceId, templateId] = useWatch({ control: form.control, name: ["workspace_id", "template_id"] });

  const workspaces = useQuery({ ...v1Queries.allWorkspaces(), select: creatableWorkspaces });
  const templates = useQuery(workspaceTemplatesQuery(workspaceId));
  const template = templates.data?.find((candidate) => candidate.id === templateId);
  const available = template?.available_options;

  useEffect(() => {
    availableRef.current = available;
  }, [available]);

  // With one workspace to choose from, there is nothing to choose.
  useEffect(() => {
    const only = workspaces.data?.length === 1 ? workspaces.data[0] : undefined;
    if (only && form.getValues("workspace_id") === undefined) form.setValue("workspace_id", only.id);
  }, [form, workspaces.data]);

  // Another workspace may not offer the chosen template.
  useEffect(() => {
    if (templates.data && templateId !== undefined && !templates.data.some((candidate) => candidate.id === templateId)) {
      form.setValue("template_id", undefined);
    }
  }, [form, templates.data, templateId]);

  // The term starts from the chosen template's defaults; choosing another template starts from its.
  const termTemplateRef = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!template || termTemplateRef.current === template.id) return;
    termTemplateRef.current = template.id;
    form.setValue("lifecycle_settings", termFormOf(template.lifecycle_settings));
  }, [form, template]);

  // Another template may not offer the options participants were given: those fall back to its defaults.
  useEffect(() => {
    if (!available) return;
    for (const { path, participant } of participantsWithPaths(form.getValues("parties"))) {
      const adapted = adaptOptions(participant, available);
      for (const key of Object.keys(adapted) as (keyof typeof adapted)[]) {
        if (adapted[key] !== participant[key]) form.setValue(`${path as TParticipantPath}.${key}`, adapted[key]);
      }
    }
  }, [form, available]);

  useEffect(() => {
    if (!focusRequest) return;
    if (focusRequest.target === "heading") headingRef.current?.focus();
    // The first field in the page's order whose problem shows (the term's fields too, which no ref reaches).
    else if (focusRequest.target === "first_problem") (formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]:not(:disabled)') ?? headingRef.current)?.focus();
    else {
      problemsRef.current?.focus();
      // Moves on to the field when it is on this step (a no-op for a path no field stands for).
      if (focusRequest.field) form.setFocus(focusRequest.field as FieldPath<TWizardValues>);
    }
  }, [form, focusRequest, step]);

  // The optional PDF, uploaded as the document once the contract exists; refused, the draft stays
  // (`created`), and Create becomes a retry of the upload, never a second contract.
  const [pdfFile, setPdfFile] = useState<File | null>(null);
  const [created, setCreated] = useState<TContract | null>(null);
  const upload = useMutation({
    mutationFn: ({ contractId, file }: { contractId: number; file: File }) => uploadContractPdf(contractId, file),
    onSuccess: (_, { contractId }) => router.push(`/contracts/${contractId}`),
  });

  const create = useMutation({
    mutationFn: createContract,
    onSuccess: (contract) => {
      // The answer is the contract page's data: it opens without loading it again.
      queryClient.setQueryData(v1Queries.contract(contract.id).queryKey, contract);
      void queryClient.invalidateQueries({ queryKey: ["v1", "contracts", "list"] });
      setCreated(contract);
      if (pdfFile) upload.mutate({ contractId: contract.id, file: pdfFile });
      else router.push(`/contracts/${contract.id}`);
    },
    onError: (error) => {
      const problems = error instanceof RequestError ? error.parameterProblems : {};
      const paths = Object.keys(problems);
      // Each problem goes on its field: the request's paths are the form's field names.
      for (const path of paths) {
        // A term setting's problem names it in words (no `start_date` in the sentence).
        const setting = settingOfPath(path);
        const message = setting && path.startsWith("lifecycle_settings.") ? termProblemSentence(setting, problems[path]?.[0] ?? "") : fieldProblem(problems[path]);
        form.setError(path as FieldPath<TWizardValues>, { type: "server", message: message ?? "" });
      }
      setServerFailure({ detail: error.message, problems });
      const target = paths.length > 0 ? (Math.min(...paths.map(stepOfPath)) as TStep) : 3;
      setStep(target);
      setFocusRequest({ target: "problems", field: paths.find((path) => stepOfPath(path) === target) });
    },
  });

  async function next() {
    if (step === 3) return;
    // Touched: their problems show, and they are checked again as they are typed in.
    const valid = await form.trigger([...STEP_FIELDS[step]], { shouldTouch: true });
    if (!valid) {
      setTriedStep(step);
      setFocusRequest({ target: "first_problem" });
      return;
    }
    setServerFailure(null);
    setStep((step + 1) as TStep);
    setFocusRequest({ target: "heading" });
  }

  function goBackTo(target: TStep) {
    setStep(target);
    setFocusRequest({ target: "heading" });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // Enter in a field of steps 1 and 2 means "next", not "create".
    if (step < 3) {
      event.preventDefault();
      void next();
      return;
    }
    setServerFailure(null);
    if (created) {
      event.preventDefault();
      if (pdfFile) upload.mutate({ contractId: created.id, file: pdfFile });
      else router.push(`/contracts/${created.id}`);
      return;
    }
    void form.handleSubmit(
      (request) => create.mutate(request),
      // Steps were checked on the way; this catches a change made since (e.g. a template's options).
      (errors) => {
        touchEveryField(form);
        const first = Object.keys(errors)[0];
        if (first) {
          setStep(stepOfPath(first));
          setTriedStep(stepOfPath(first));
          setFocusRequest({ target: "heading" });
        }
      },
    )(event);
  }

  const title = STEPS[step - 1]!.title;
  const opening = upload.isSuccess || (create.isSuccess && !upload.isPending && !upload.isError && !pdfFile);
  const busy = create.isPending || upload.isPending || opening;
  return (
    <FormProvider {...form}>
      <FormTried.Provider value={triedStep === step}>
        <form ref={formRef} onSubmit={onSubmit} noValidate className="mt-6 max-w-4xl space-y-6" aria-labelledby="wizard-step-title">
          <StepIndicator current={step} />
          <h2 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
            Step {step} of {STEPS.length}: {title}
          </h2>
          {serverFailure ? <ServerProblems ref={problemsRef} detail={serverFailure.detail} problems={serverFailure.problems} /> : null}

          {step === 1 ? (
            <BasicsStep workspaces={workspaces} templates={templates} template={template} workspaceChosen={workspaceId !== undefined} />
          ) : step === 2 ? (
            available ? (
              <CounterpartiesStep available={available} />
            ) : templates.isFetching ? (
              <LoadingState label="Loading the template…" />
            ) : (
              // The workspace changed under a chosen template, and the new one does not offer it.
              <div className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                <p>The chosen template cannot be used in this workspace.</p>
                <button type="button" onClick={() => goBackTo(1)} className="mt-2 font-medium underline">
                  Choose another template
                </button>
              </div>
            )
          ) : (
            <ReviewStep
              values={valuesToSend(form.getValues(), available)}
              workspace={workspaces.data?.find((workspace) => workspace.id === workspaceId)}
              template={template}
              onChange={goBackTo}
              pdf={
                <DocumentPdfField
                  file={pdfFile}
                  onChange={setPdfFile}
                  disabled={busy}
                  refusal={created && upload.isError ? { contractId: created.id, message: upload.error instanceof RequestError ? upload.error.message : "The PDF could not be uploaded." } : null}
                />
              }
            />
          )}

          <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
            {step > 1 && !created ? (
              <button type="button" onClick={() => goBackTo((step - 1) as TStep)} disabled={busy} className={secondaryButton}>
                Back
              </button>
            ) : null}
            {step < 3 ? (
              <button type="submit" className={primaryButton}>
                Next
              </button>
            ) : (
              <button type="submit" disabled={busy} className={primaryButton}>
                {opening
                  ? "Opening the contract…"
                  : upload.isPending
                    ? "Uploading the PDF…"
                    : created
                      ? pdfFile
                        ? "Upload the PDF and open the contract"
                        : "Open the contract"
                      : create.isPending
                        ? "Creating…"
                        : "Create contract"}
              </button>
            )}
          </div>
        </form>
      </FormTried.Provider>
    </FormProvider>
  );
}
