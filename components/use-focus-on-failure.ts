"use client";

import { useEffect, type RefObject } from "react";

/**
 * Moves focus to `ref`'s element each time `failure` becomes a new truthy value (a request's error),
 * if focus was lost to the page meanwhile: a control disabled while its request ran has lost it, and
 * the field to mend is where a keyboard or screen-reader user should be, with its problem read out.
 * Focus the user moved elsewhere while waiting (a slow upload) stays where they put it.
 */
export function useFocusOnFailure(ref: RefObject<HTMLElement | null>, failure: unknown): void {
  useEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (failure && lost) ref.current?.focus();
  }, [failure, ref]);
}
