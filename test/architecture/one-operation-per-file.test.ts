import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// lib/services holds one operation per file, named for it (docs/architecture.md, "lib/services"): a
// file exports at most one function; the types and constants that belong to it are fine. What several
// operations share sits in a file of its own, named for what it is, under the same rule.
const ROOT = path.resolve(import.meta.dirname, "../..");
const SERVICES = path.join(ROOT, "lib/services");

/** Files allowed more than one exported function, each with why. */
const EXCEPTIONS: Record<string, string> = {
  "lib/services/mail/messages.ts": "every mail's subject and text, one builder per kind, side by side so they read alike",
  "lib/services/not-found.ts": "the 404s of the paths under a contract, worded alike in one place",
  "lib/services/participants/update-participant.ts": "the update and the SQL of what it reads (its targets), which the route also reads with the credentials",
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

function isFunctionValue(node: ts.Expression | undefined): boolean {
  if (!node) return false;
  while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) node = node.expression;
  return ts.isArrowFunction(node) || ts.isFunctionExpression(node);
}

function exported(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** Names of the functions a module exports: declarations, consts holding a function, and `export { f }` of either. */
function exportedFunctions(source: ts.SourceFile): string[] {
  const local = new Set<string>();
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && statement.body) {
      local.add(statement.name.text);
      if (exported(statement)) names.push(statement.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && isFunctionValue(declaration.initializer)) {
          local.add(declaration.name.text);
          if (exported(statement)) names.push(declaration.name.text);
        }
      }
    }
  }
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        const from = (element.propertyName ?? element.name).text;
        // Re-exports from another module count too: the operation lives elsewhere, the name here.
        if (statement.moduleSpecifier || local.has(from)) names.push(element.name.text);
      }
    }
  }
  return names;
}

describe("one operation per file in lib/services", () => {
  const files = tsFiles(SERVICES);

  it("reads the services", () => {
    expect(files.length).toBeGreaterThan(80);
  });

  it("has no file exporting more than one function, unless listed with a reason", () => {
    const offenders: string[] = [];
    for (const file of files) {
      const relative = path.relative(ROOT, file).split(path.sep).join("/");
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
      const names = exportedFunctions(source);
      if (names.length > 1 && !(relative in EXCEPTIONS)) offenders.push(`${relative} exports ${names.length} functions: ${names.join(", ")}`);
    }
    expect(offenders).toEqual([]);
  });

  it("lists no exception that no longer needs it", () => {
    const stale = Object.keys(EXCEPTIONS).filter((relative) => {
      const file = path.join(ROOT, relative);
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
      return exportedFunctions(source).length <= 1;
    });
    expect(stale).toEqual([]);
  });
});
