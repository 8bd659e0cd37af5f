// The benchmark starts the app with `npm start`'s own command line (bench/processes.ts
// `npmStartCommand`): package.json's script, its flags and the benchmark's, one `exec node`.
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { npmStartCommand } from "@/bench/processes";

test("is package.json's start script with the benchmark's node flags after its one `exec node`, and the arguments at the end", () => {
  const start = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start;
  const command = npmStartCommand(["--cpu-prof", "--prof-dir=/tmp/a b"], ["-p", "4000"]);
  expect(command).toBe(`${start.replace("exec node", "exec node --cpu-prof '--prof-dir=/tmp/a b'")} -p 4000`);
  expect(command.match(/\bexec\b/g)).toEqual(["exec"]);
});
