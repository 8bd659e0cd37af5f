"use client";

import { useEffect, type RefObject } from "react";

/**
 * Moves focus to `ref`'s element each time `failure` becomes a new truthy value (a request's error).
 * A control disabled while its request ran has lost focus to the page by then; the field to mend is
 * where a keyboard or screen-reader user should be, with its problem read out.
 */
export function useFocusOnFailure(ref: RefObject<HTMLElement | null>, failure: unknown): void {
  useEffect(() => {
    if (failure) ref.current?.focus();
  }, [failure, ref]);
}
