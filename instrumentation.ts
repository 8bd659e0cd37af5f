// As the server starts: check the environment (a bad value stops the server with a message naming
// it), then open the database (and, on first start, migrate and seed it) so the first request does
// not wait for it. Never during `next build`.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { checkEnvironmentOrExit } = await import("@/lib/startup");
  checkEnvironmentOrExit();
  const { logger } = await import("@/lib/logger");
  if (!(globalThis as { __contractsFrontDoor?: boolean }).__contractsFrontDoor) {
    // Plain `next start`/`next dev` skip server.mjs: no 413 for chunked bodies, no 400 for broken
    // paths, and client-sent X-Forwarded-* headers would be believed. Say so loudly.
    logger.error("started without server.mjs: use `npm start` (or `npm run dev`); see docs/security.md");
  }
  const { getPrisma, onDatabaseOpen, readyPrisma } = await import("@/lib/db");
  // The embedded database is the demo: fill it on its first start (the seed's code is loaded only there).
  onDatabaseOpen(async (prisma, { embedded }) => {
    if (!embedded) return;
    const { seedIfEmpty } = await import("@/lib/seed/demo");
    await seedIfEmpty(prisma);
  });
  getPrisma().catch((error: unknown) => {
    logger.error({ error: String(error) }, "database failed to open; retrying on the next request");
  });
  // Mail, expiry, webhooks: every instance takes part (BACKGROUND_JOBS=off opts one out).
  const { startBackgroundJobs } = await import("@/lib/services/jobs/start-background-jobs");
  const { stopBackgroundJobs } = await import("@/lib/services/jobs/stop-background-jobs");
  // Webhook payloads are the API's JSON, which lib/api builds: handed down to the dispatcher.
  const { buildWebhookEventData } = await import("@/lib/api/webhook-event-data");
  startBackgroundJobs(getPrisma, { buildWebhookData: buildWebhookEventData });
  // What server.mjs's /readyz and /metrics ask the app (lib/services/health).
  const { registerOperations } = await import("@/lib/services/health/register-operations");
  const { env } = await import("@/lib/env");
  registerOperations({ database: readyPrisma, openDatabase: getPrisma, backgroundJobs: env().BACKGROUND_JOBS === "on" });
  // On SIGTERM/SIGINT server.mjs runs these before it exits (lib/shutdown.ts).
  const { onShutdown } = await import("@/lib/shutdown");
  onShutdown(stopBackgroundJobs);
}
