// Memory settings that only take effect when a process starts (docs/performance.md, "Memory"):
// importing this module replaces the process, once, by itself with them (`process.execve`: same
// PID, same arguments, same open files), before anything else is loaded.
//   - `--max-semi-space-size=4`: V8's young generation is two 4 MB halves instead of up to 16 MB
//     each; a request's garbage is short-lived and small.
//   - `MALLOC_ARENA_MAX=1`: glibc keeps memory pools per thread; compilation on V8's worker
//     threads (WebAssembly, the optimizing JavaScript compiler under load) left their memory in
//     pools nobody used again. One pool for all threads.
// Either can be set by whoever starts the process (`node --max-semi-space-size=16 server.mjs`,
// `MALLOC_ARENA_MAX=8`): what is given wins. `CONTRACTS_MEMORY_SETTINGS=off` skips the restart.
const MARK = "CONTRACTS_MEMORY_SETTINGS";

if (process.env[MARK] !== "off" && process.env[MARK] !== "applied" && typeof process.execve === "function") {
  const flags = process.execArgv.some((a) => /^--max[-_]semi[-_]space[-_]size/.test(a)) ? [] : ["--max-semi-space-size=4"];
  const env = { ...process.env, [MARK]: "applied" };
  if (!env.MALLOC_ARENA_MAX) env.MALLOC_ARENA_MAX = "1"; // empty counts as unset, as in lib/env.ts
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...flags, ...process.argv.slice(1)], env);
}
