import { STEPS, type TStep } from "./wizard-form";

/** Where the user is in the wizard; the current step carries `aria-current="step"`. */
export function StepIndicator({ current }: { current: TStep }) {
  return (
    <nav aria-label="Steps">
      <ol className="flex flex-wrap gap-2 text-sm">
        {STEPS.map((step) => {
          const state = step.number === current ? "current" : step.number < current ? "done" : "todo";
          return (
            <li
              key={step.number}
              aria-current={state === "current" ? "step" : undefined}
              className={`flex items-center gap-2 rounded-full border px-3 py-1 ${
                state === "current"
                  ? "border-blue-700 bg-blue-50 font-semibold text-blue-900"
                  : state === "done"
                    ? "border-slate-300 bg-white text-slate-800"
                    : "border-slate-200 bg-white text-slate-600"
              }`}
            >
              <span aria-hidden="true" className="font-mono">
                {state === "done" ? "✓" : step.number}
              </span>
              <span>
                <span className="sr-only">Step {step.number}: </span>
                {step.title}
                {state === "done" ? <span className="sr-only"> (done)</span> : null}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
