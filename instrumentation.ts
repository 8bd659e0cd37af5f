// As the server starts: check the environment (a bad value stops the server with a message naming
// it), then open the database (and, on first start, migrate and seed it) so the first request does
// not wait for it. Never during `next build`.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { checkEnvironmentOrExit } = await import("@/lib/startup");
  checkEnvironmentOrExit();
  const { getPrisma } = await import("@/lib/db");
  getPrisma().catch((error: unknown) => {
    console.error(JSON.stringify({ level: "error", msg: "database failed to open; retrying on the next request", error: String(error) }));
  });
}
