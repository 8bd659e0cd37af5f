// New mail was committed: the deliverer of this process need not wait for its next poll. Other
// instances find the mail on theirs (MAIL_POLL_INTERVAL_MS).
type TListener = () => void;

const g = globalThis as { __contractsMailListeners?: Set<TListener> };
const listeners = (g.__contractsMailListeners ??= new Set());

export function onMailQueued(listener: TListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Call after the transaction that queued mail has committed. */
export function mailQueued(): void {
  for (const listener of listeners) listener();
}
