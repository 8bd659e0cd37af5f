import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3217);
// Per port, so runs side by side never share (or wipe) one database folder.
export const E2E_DATA_DIR = `.data/e2e-${port}`;
// The embedded database's socket folder, known to the tests that write rows no endpoint writes yet.
export const E2E_SOCKET_DIR = path.resolve(`.data/e2e-${port}-socket`);

// Browser tests drive the production build on a fresh embedded database, in Debian's Chromium
// (no browser download: `npx playwright install` cannot run offline).
export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // CI's machines can run the browser tests several times slower than a developer's: a page
  // reloaded there may take longer than 10 s to show its data.
  expect: { timeout: process.env.CI ? 20_000 : 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // The browser reads dates in the tests' own locale, so a test can say what a page should show.
    locale: Intl.DateTimeFormat().resolvedOptions().locale,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    // On the Node that runs Playwright (Node 24 under `npm test` / `npx`), not whichever is first on PATH.
    command: `rm -rf ${E2E_DATA_DIR} ${E2E_SOCKET_DIR} && ${JSON.stringify(process.execPath)} server.mjs -p ${port} -H 127.0.0.1`,
    url: `http://127.0.0.1:${port}/v1/ping`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PGLITE_DATA_DIR: E2E_DATA_DIR,
      EMBEDDED_DB_SOCKET_DIR: E2E_SOCKET_DIR,
      DATABASE_URL: "",
      SEED_API_TOKEN: "e2e-api-token-0123456789abcdef",
      SEED_ADMIN_PASSWORD: "e2e-admin-password",
      LOG_LEVEL: "warn",
      // The browser stands in for clients behind a proxy: tests that need their own client address
      // (the sign-in throttle) send X-Forwarded-For, which only a trusted proxy may set.
      TRUSTED_PROXIES: "loopback",
      // The webhooks page's test subscribes a receiver on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_URLS: "1",
      WEBHOOK_POLL_INTERVAL_MS: "200",
    },
  },
});
