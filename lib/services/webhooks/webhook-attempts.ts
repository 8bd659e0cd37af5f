// The webhook delivery attempts under way in one process (deliver-due-webhooks.ts).

/**
 * The delivery attempts under way in a process. They outlive the run that started them, so a
 * receiver that takes its whole timeout to answer holds only its own slot: the next run claims and
 * sends the others meanwhile. Whoever owns the tracker waits for it (`settled`): the background job
 * at its stop, a call without one before it returns.
 */
export class WebhookAttempts {
  private readonly running = new Set<Promise<void>>();

  get size(): number {
    return this.running.size;
  }

  /** Runs `attempt`, which must not throw (deliver-due-webhooks.ts `attemptAndRecord`). */
  start(attempt: () => Promise<void>): void {
    const p = attempt().finally(() => this.running.delete(p));
    this.running.add(p);
  }

  /** Resolves once fewer than `limit` attempts run. */
  async below(limit: number): Promise<void> {
    while (this.running.size >= limit) await Promise.race([...this.running].map((p) => p.then(undefined, () => undefined)));
  }

  /** Resolves once every attempt started so far (and any started meanwhile) has ended, however it ended. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled(this.running);
  }
}
