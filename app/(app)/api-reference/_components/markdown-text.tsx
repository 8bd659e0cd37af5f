import type { ReactNode } from "react";

/**
 * The little Markdown the document's descriptions use: paragraphs, "- " lists and `code`. Rendered
 * as React elements (never as HTML), so a description cannot inject markup.
 */
export function MarkdownText({ text, className = "" }: { text: string; className?: string }) {
  const blocks = text.split(/\n\s*\n/).filter((block) => block.trim() !== "");
  return (
    <div className={`space-y-2 text-sm text-slate-700 ${className}`}>
      {blocks.map((block, i) => {
        const lines = block.split("\n");
        if (lines.every((line) => line.trimStart().startsWith("- "))) {
          return (
            <ul key={i} className="list-disc space-y-1 pl-5">
              {lines.map((line, j) => (
                <li key={j}>{inline(line.trimStart().slice(2))}</li>
              ))}
            </ul>
          );
        }
        return <p key={i}>{inline(lines.join(" "))}</p>;
      })}
    </div>
  );
}

/** `code` spans; the rest is text. */
export function inline(text: string): ReactNode[] {
  return text.split(/(`[^`]+`)/).map((part, i) =>
    part.startsWith("`") && part.endsWith("`") && part.length > 1 ? (
      <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.85em] text-slate-800">
        {part.slice(1, -1)}
      </code>
    ) : (
      part
    ),
  );
}
