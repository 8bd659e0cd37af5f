// A one-time message for the next page (e.g. "Contract … was deleted." on the list the deleted
// contract's page navigates to). Kept in sessionStorage for this tab only, and read once.

const KEY = "contracts-admin:flash";

export function setFlash(message: string): void {
  try {
    sessionStorage.setItem(KEY, message);
  } catch {
    // Storage unavailable (private mode, quota): the navigation itself still happens.
  }
}

/** The pending message, removed as it is read; null when there is none. */
export function takeFlash(): string | null {
  try {
    const message = sessionStorage.getItem(KEY);
    if (message !== null) sessionStorage.removeItem(KEY);
    return message;
  } catch {
    return null;
  }
}
