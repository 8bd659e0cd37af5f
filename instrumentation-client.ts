// Runs in the browser before the app hydrates.
//
// zod 4 probes once whether it may compile parsers with `new Function`. Under the pages'
// Content-Security-Policy (no 'unsafe-eval', proxy.ts) the probe fails quietly, but the browser
// still reports it as a CSP violation on every page that validates a form. `jitless` skips the
// probe (and the JIT, which forms do not need). Set on zod's shared config object, without
// importing zod here, so pages that do not use zod load nothing more.
const zodConfig = ((globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig ??= {});
zodConfig.jitless = true;
