// Opens (and on first start migrates and seeds) the database as the server starts, so the first
// request does not wait for it. Never during `next build`.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { getPrisma } = await import("@/lib/db");
  getPrisma().catch((error: unknown) => {
    console.error(JSON.stringify({ level: "error", msg: "database failed to open; retrying on the next request", error: String(error) }));
  });
}
