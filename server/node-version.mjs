// The Node.js this project runs on: 24, the current LTS (package.json's `engines` and its `node`
// dependency, .nvmrc, CI). `npm install` puts Node 24 in node_modules/.bin (the `node` package),
// and npm puts that folder first on PATH for its scripts and `npx`, so `npm start`, `npm run dev`,
// `npm test` and `npx …` run on it even where the machine's own `node` is older.
//
// Importing this module checks the running Node and stops the process, with a message saying what
// to do, when it is older: `server.mjs` and `scripts/test.mjs` import it first, so a plain
// `node server.mjs` on an older Node fails at once instead of half-working.
import path from "node:path";

export const REQUIRED_NODE_MAJOR = 24;

/** Why this Node cannot run the project (a message to print), or null when it can. */
export function nodeVersionProblem(version, execPath, script) {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (major >= REQUIRED_NODE_MAJOR) return null;
  return [
    `${script ? `${script} needs` : "This project needs"} Node.js ${REQUIRED_NODE_MAJOR} or newer; this is Node.js ${version} (${execPath}).`,
    `\`npm install\` brings Node.js ${REQUIRED_NODE_MAJOR} into node_modules/.bin; run through npm so it is used:`,
    "`npm start`, `npm run dev`, `npm test`, `npx vitest …`, `npx playwright …` (or node_modules/.bin/node <script>).",
    "No node_modules/.bin/node? Run `npm install` again, with install scripts on (not --ignore-scripts).",
  ].join("\n");
}

const script = process.argv[1] ? path.relative(process.cwd(), process.argv[1]) : undefined;
const problem = nodeVersionProblem(process.version, process.execPath, script);
if (problem) {
  console.error(problem);
  process.exit(1);
}
