// The contract's text as it is signed (lib/domain/contract-document.ts's structure): on the
// contract page, the template preview and the signing page. Headings nest under the page's own
// heading level; an empty data field is marked, in text as well as colour.
import type { TBlock, TDocSection, TSegment } from "@/lib/domain/contract-document";

type THeadingLevel = 2 | 3;

function Segments({ segments }: { segments: readonly TSegment[] }) {
  return segments.map((segment, i) =>
    "missing" in segment && segment.missing ? (
      <mark key={i} className="rounded bg-amber-100 px-1 text-amber-900 ring-1 ring-amber-300">
        {segment.text}
        <span className="sr-only"> (not filled in yet)</span>
      </mark>
    ) : "field" in segment ? (
      <strong key={i} className="font-semibold">
        {segment.text}
      </strong>
    ) : (
      <span key={i}>{segment.text}</span>
    ),
  );
}

function Block({ block }: { block: TBlock }) {
  if (block.kind === "list") {
    return (
      <ul className="my-2 ml-5 list-disc space-y-1">
        {block.items.map((item, i) => (
          <li key={i}>
            <Segments segments={item} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <p className="my-2">
      <Segments segments={block.segments} />
    </p>
  );
}

/** The sections of a document, each a heading (level `level`) and its paragraphs and lists. */
export function DocumentText({ sections, level = 3 }: { sections: readonly TDocSection[]; level?: THeadingLevel }) {
  const Heading = level === 2 ? "h2" : "h3";
  if (sections.length === 0) return <p className="text-sm text-slate-600">This contract has no text.</p>;
  return (
    <div className="max-w-prose break-words text-[15px] leading-relaxed text-slate-900">
      {sections.map((section, i) => (
        <div key={i} className="mt-4 first:mt-0">
          {section.heading ? <Heading className="text-base font-semibold text-slate-900">{section.heading}</Heading> : null}
          {section.blocks.map((block, j) => (
            <Block key={j} block={block} />
          ))}
        </div>
      ))}
    </div>
  );
}
