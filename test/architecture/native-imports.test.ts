import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The server's own entry (server.mjs, server/*.mjs) runs under Node's loader, which strips types but
// neither adds a missing extension nor knows the `@/` alias: every module it reaches, at any depth,
// must import others by a relative path with its `.ts` extension (docs/architecture.md). A missing
// one is found here, not by a server that does not start.
const ROOT = path.resolve(import.meta.dirname, "../..");

/** The specifiers a module loads at run time: imports and re-exports that are not type-only, and `import()`. */
function runtimeSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every project module the entry reaches, and each import of them that Node's loader cannot follow. */
function walk(entries: string[]): { reached: string[]; problems: string[] } {
  const reached = new Set<string>();
  const problems: string[] = [];
  const queue = [...entries];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (reached.has(file)) continue;
    reached.add(file);
    for (const specifier of runtimeSpecifiers(file)) {
      const where = `${path.relative(ROOT, file)} imports "${specifier}"`;
      if (specifier.startsWith("@/")) problems.push(`${where}: the alias is the bundler's; use a relative path`);
      if (!specifier.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (!/\.(ts|mjs|js)$/.test(specifier)) problems.push(`${where}: name the file with its extension`);
      else if (!existsSync(target)) problems.push(`${where}: no such file`);
      else queue.push(target);
    }
  }
  return { reached: [...reached].map((file) => path.relative(ROOT, file)), problems };
}

describe("modules the server's entry loads with Node's own loader", () => {
  it("import each other by relative paths with their extensions", () => {
    const entries = [path.join(ROOT, "server.mjs"), ...readdirSync(path.join(ROOT, "server")).filter((name) => name.endsWith(".mjs")).map((name) => path.join(ROOT, "server", name))];
    const { reached, problems } = walk(entries);
    expect(reached).toContain("lib/domain/file-content.ts");
    expect(problems).toEqual([]);
  });
});
