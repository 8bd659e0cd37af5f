// A form control's problem and hint, under the ids its `aria-describedby` names: shared by the
// wizard's fields and the term's.
import { errorClass, hintClass } from "@/components/participant-fields";

/** The ids a control names in `aria-describedby`: its problem, then its hint. */
export function describedByIds(id: string, error?: string, hint?: string): string | undefined {
  return [error ? `${id}-error` : undefined, hint ? `${id}-hint` : undefined].filter(Boolean).join(" ") || undefined;
}

/** The control's problem, then its hint, under the ids `describedByIds` names. */
export function FieldMessages({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  return (
    <>
      {error ? (
        <p id={`${id}-error`} className={errorClass}>
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className={hintClass}>
          {hint}
        </p>
      ) : null}
    </>
  );
}
