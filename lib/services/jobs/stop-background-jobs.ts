import { runningJobs as g } from "./running-jobs";

/** Stops the background jobs (start-background-jobs.ts), waiting for runs under way (the server's shutdown). */
export async function stopBackgroundJobs(): Promise<void> {
  const jobs = g.__contractsJobs ?? [];
  g.__contractsJobs = undefined;
  await Promise.all(jobs.map((job) => job.stop()));
}
