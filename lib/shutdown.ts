// Work to finish before the process exits on SIGTERM/SIGINT. server.mjs (outside the bundle) runs
// these hooks, bounded in time, before it exits; they live on globalThis so both sides see one set.
type TShutdownHook = () => Promise<void>;

const g = globalThis as { __contractsShutdownHooks?: Set<TShutdownHook> };
const hooks = (g.__contractsShutdownHooks ??= new Set());

/** Runs `hook` when the server shuts down; returns a function that removes it. */
export function onShutdown(hook: TShutdownHook): () => void {
  hooks.add(hook);
  return () => hooks.delete(hook);
}
