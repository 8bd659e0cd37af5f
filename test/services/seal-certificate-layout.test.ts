// The completion certificate's layout (lib/services/seal/build-sealed-pdf.ts on lib/pdf/layout.ts),
// read back with pdftotext: each timeline line has its time and its event apart, and however many
// events push the end across a page, no page ends on a heading, a participant's lines stay under
// their name, and the last page holds the timeline's last lines with the audit chain, the seal and
// the closing note whole, never only a tail.
import { describe, expect, it } from "vitest";

import { buildSealedPdf } from "@/lib/services/seal/build-sealed-pdf";
import { pageTexts, sealIdentityWithoutDatabase, syntheticSealInput } from "@/test/helpers/sealed-pdf";

const SEALED_AT = new Date("2026-11-28T10:16:00Z");
const CLOSING = "This file is sealed with a PAdES signature over all of its bytes. Any change breaks it; upload the file to this service's /verify page to check it.";
const HEADINGS = ["Completion certificate", "Term", "Attachments", "Participants", "Olga Owner", "Åsa Öberg", "Bjørn Ærø", "Event timeline", "Audit chain", "Seal"];
const TIMELINE_LINE = /^\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC {2,}\S/;

/** The certificate's pages (after the one-page contract), each as its lines without the footer. */
async function certificatePages(events: number) {
  const input = syntheticSealInput({ events });
  const pdf = await buildSealedPdf(input, await sealIdentityWithoutDatabase(), SEALED_AT);
  const pages = pageTexts(pdf, { layout: true }).filter((p) => p.includes("Completion certificate · contract"));
  const lines = pages.map((p) =>
    p
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.includes("Completion certificate · contract"))
      .map((l) => l.trimEnd()),
  );
  return { input, pdf, lines };
}

const flat = (lines: string[]) => lines.join(" ").replace(/\s+/g, " ");

// 28–46 events cross the boundary where the old layout left the closing note, the seal or the audit
// chain alone on a last page; 80–90 cross the next page's.
describe.each([28, 30, 31, 32, 34, 36, 38, 40, 42, 44, 46, 80, 84, 88])("a certificate with %i events", (events) => {
  it("keeps every heading with what follows it, and ends on a page with the last timeline lines, the chain, the seal and the whole closing note", async () => {
    const { input, lines } = await certificatePages(events);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    lines.forEach((page, i) => {
      const lastLine = page.at(-1)!.trim();
      expect(HEADINGS, `page ${i + 1} of the certificate ends on the heading "${lastLine}"`).not.toContain(lastLine);
    });
    const last = lines.at(-1)!;
    expect(last.some((l) => TIMELINE_LINE.test(l)), "the last page holds timeline lines").toBe(true);
    expect(flat(last)).toContain(`contract.sign — ${input.events.at(-1)!.actorName ?? "the service"}`);
    for (const heading of ["Audit chain", "Seal"]) expect(last.map((l) => l.trim())).toContain(heading);
    expect(flat(last)).toContain(CLOSING);
    // A participant's lines under their name, on one page.
    for (const page of lines) {
      for (const name of ["Åsa Öberg", "Bjørn Ærø"]) {
        const at = page.findIndex((l) => l.trim() === name);
        if (at >= 0) expect(flat(page.slice(at))).toMatch(new RegExp(`Name typed to sign ${name} .*Two-step method none`));
      }
    }
  });
});

describe("the event timeline", () => {
  it("prints each event's time and the event apart, on one line, in the order they happened", async () => {
    const { input, pdf, lines } = await certificatePages(40);
    const timeline = lines.flat().filter((l) => TIMELINE_LINE.test(l));
    expect(timeline).toHaveLength(input.events.length);
    input.events.forEach((e, i) => {
      const time = `${e.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC`;
      expect(timeline[i]).toMatch(new RegExp(`^\\s*${time} {2,}${e.action.replace(".", "\\.")} — ${e.actorName ?? "the service"}$`));
    });
    // Read as plain text too (no layout), the time never runs into the event.
    expect(pageTexts(pdf).join("\n")).not.toMatch(/UTC(contract|participant)/);
  });
});
