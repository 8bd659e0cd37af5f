/**
 * The statements of a SQL script, split at the semicolons that end them, never at one inside a
 * string (`'…'`, `E'…'`), a quoted name (`"…"`), a comment (`--`, nested `/* … *\/`) or a
 * dollar-quoted body (`$$…$$`, `$tag$…$tag$`, as a PL/pgSQL function's). Empty statements are
 * dropped; each statement is trimmed and has no final `;`.
 *
 * Why: @prisma/adapter-pg runs a migration script by splitting it at every `;`, which cuts a
 * function body in pieces (lib/db/schema-engine.ts runs migrations through this instead).
 */
export function splitSqlScript(script: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const n = script.length;
  const endOf = (from: number, close: string): number => {
    const at = script.indexOf(close, from);
    return at === -1 ? n : at + close.length;
  };
  while (i < n) {
    const ch = script[i]!;
    const next = script[i + 1];
    if (ch === ";") {
      statements.push(script.slice(start, i));
      start = ++i;
    } else if (ch === "-" && next === "-") {
      i = endOf(i + 2, "\n");
    } else if (ch === "/" && next === "*") {
      // Comments nest in PostgreSQL.
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (script.startsWith("/*", i)) (depth++, (i += 2));
        else if (script.startsWith("*/", i)) (depth--, (i += 2));
        else i++;
      }
    } else if (ch === "'") {
      // E'…' strings take backslash escapes; in every string '' is a quote.
      const escapes = i > 0 && /[eE]/.test(script[i - 1]!) && (i < 2 || !/[\w$]/.test(script[i - 2]!));
      i++;
      while (i < n) {
        if (escapes && script[i] === "\\") i += 2;
        else if (script[i] === "'" && script[i + 1] === "'") i += 2;
        else if (script[i] === "'") {
          i++;
          break;
        } else i++;
      }
    } else if (ch === '"') {
      i = endOf(i + 1, '"');
    } else if (ch === "$" && (i === 0 || !/[\w$]/.test(script[i - 1]!))) {
      // A dollar quote's tag is an identifier without `$`, possibly empty; `$1` is a parameter.
      const tag = /^\$(?:[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/.exec(script.slice(i, i + 64));
      i = tag ? endOf(i + tag[0].length, tag[0]) : i + 1;
    } else {
      i++;
    }
  }
  statements.push(script.slice(start));
  return statements.map((s) => s.trim()).filter((s) => s.length > 0 && !/^(?:--[^\n]*(?:\n|$)|\s)*$/.test(s));
}
