// A contract was signed and its seal queued: this process's sealer need not wait for its next poll.
// Other instances find the row on theirs.
type TListener = () => void;

const g = globalThis as { __contractsSealListeners?: Set<TListener> };
const listeners = (g.__contractsSealListeners ??= new Set());

export function onSealQueued(listener: TListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Call after the transaction that queued the seal has committed. */
export function sealQueued(): void {
  for (const listener of listeners) listener();
}
