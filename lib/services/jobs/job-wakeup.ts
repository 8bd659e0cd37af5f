// Work was queued and committed: this process's job need not wait for its next poll. Other
// instances find the rows on theirs. One set of listeners per kind of work, kept on globalThis so
// that development reloads share it.
type TListener = () => void;

const g = globalThis as { __contractsJobWakeups?: Map<string, Set<TListener>> };
const wakeups = (g.__contractsJobWakeups ??= new Map());

export function jobWakeup(kind: string): { on(listener: TListener): () => void; notify(): void } {
  let listeners = wakeups.get(kind);
  if (!listeners) wakeups.set(kind, (listeners = new Set()));
  const set = listeners;
  return {
    on(listener) {
      set.add(listener);
      return () => set.delete(listener);
    },
    /** Call after the transaction that queued the work has committed. */
    notify() {
      for (const listener of set) listener();
    },
  };
}
