/**
 * Added to a pool timeout's message (lib/db/pool.ts) when the wait was for a connection in use,
 * not a new one; lib/api/errors.ts reads it to answer "busy" rather than "database not reachable".
 */
export const POOL_BUSY_MARK = "every database connection was in use";
