"use client";

import type { ChangeEvent, RefObject } from "react";
import { useFocusOnFailure } from "./use-focus-on-failure";

type TFileInputProps = {
  inputRef: RefObject<HTMLInputElement | null>;
  id: string;
  accept: string;
  /** While the chosen file is being sent. */
  busy: boolean;
  /** The last refusal of a file (a request's error), or null. */
  failure: unknown;
  /** The id of the element that says why the file was refused. */
  problemId: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
};

/** A file field that, once a file is refused, takes focus back and is described by the refusal. */
export function FileInput({ inputRef, id, accept, busy, failure, problemId, onChange }: TFileInputProps) {
  useFocusOnFailure(inputRef, failure);
  return (
    <input
      ref={inputRef}
      id={id}
      type="file"
      accept={accept}
      className="mt-1 block text-sm"
      disabled={busy}
      aria-invalid={failure ? true : undefined}
      aria-describedby={failure ? problemId : undefined}
      onChange={onChange}
    />
  );
}
