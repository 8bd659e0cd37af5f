import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { TEST_API_TOKEN, startServer } from "@/test/helpers/server";

// The embedded database lives in its folder: a restart keeps the data (and does not seed again),
// and an emptied folder gives a fresh demo database on the next start.

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const headers = { "x-service-api-token": TEST_API_TOKEN, "content-type": "application/json" };
const countContracts = async (base: string) => (await (await fetch(`${base}/v1/contracts?limit=1`, { headers })).json()).count as number;

test("a restart keeps the data; a deleted data folder starts again with the demo data", async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "contracts-restart-"));
  dirs.push(dataDir);

  const first = await startServer({ dataDir });
  const demoCount = await countContracts(first.baseUrl);
  expect(demoCount).toBeGreaterThan(0);
  const workspace = (await (await fetch(`${first.baseUrl}/v1/workspaces`, { headers })).json()).data[0];
  const template = (await (await fetch(`${first.baseUrl}/v1/templates?workspace_id=${workspace.id}`, { headers })).json()).data[0];
  const created = await fetch(`${first.baseUrl}/v1/contracts/create`, {
    method: "POST",
    headers,
    body: JSON.stringify({ workspace_id: workspace.id, template_id: template.id, name: "Survives a restart" }),
  });
  expect(created.status).toBe(200);
  const { id } = await created.json();
  await first.stop();

  const second = await startServer({ dataDir });
  expect(await countContracts(second.baseUrl)).toBe(demoCount + 1);
  const again = await fetch(`${second.baseUrl}/v1/contracts/${id}`, { headers });
  expect((await again.json()).name).toBe("Survives a restart");
  await second.stop();

  await rm(dataDir, { recursive: true, force: true });
  const third = await startServer({ dataDir });
  expect(await countContracts(third.baseUrl)).toBe(demoCount);
  await third.stop();
  // Three starts, two of them seeding the demo data; one start alone may take up to 180 s on a busy machine.
}, 540_000);
