import { env } from "@/lib/env";

/** A bad environment stops the server at start, with the message naming each variable. */
export function checkEnvironmentOrExit(): void {
  try {
    env();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
