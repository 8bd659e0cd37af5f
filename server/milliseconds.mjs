// A server setting in milliseconds from the environment (server.mjs reads its own, before Next
// and lib/env.ts load): unset or empty = `byDefault`; `0` = off; otherwise a whole number from
// `min` to `max`. Anything else throws, naming the variable (the server does not start).
export function parseMillisecondsSetting(name, raw, { byDefault, min, max }) {
  if (raw === undefined || raw === "") return byDefault;
  if (!/^\d{1,7}$/.test(raw)) throw new Error(`${name}: expected a whole number of milliseconds, got ${JSON.stringify(raw.slice(0, 40))}`);
  const ms = Number(raw);
  if (ms !== 0 && (ms < min || ms > max)) throw new Error(`${name}: expected 0 (off) or ${min} to ${max}, got ${ms}`);
  return ms;
}
