// The lifecycle's request schemas (lib/schemas/lifecycle.ts): an internal reminder's note is plain
// text by the rule every text of several lines keeps (lib/schemas/common.ts hasTextControlCharacters).
import { describe, expect, it } from "vitest";
import { ZCreateContractReminderRequestSchema } from "@/lib/schemas/lifecycle";

const note = (text: string) => ZCreateContractReminderRequestSchema.safeParse({ date: "2027-01-31", note: text });

describe("an internal reminder's note", () => {
  it("keeps line breaks (CR LF and CR stored as LF), as a reason does", () => {
    expect(note("Call them\r\nabout the renewal").data?.note).toBe("Call them\nabout the renewal");
    expect(note("Line one\nline two\rthree").data?.note).toBe("Line one\nline two\nthree");
  });

  it("refuses every other control character a name or reason may not hold: C0, C1 (NEL, CSI), tab, line and paragraph separators, bidi overrides", () => {
    for (const bad of ["a\u0000b", "a\u0007b", "a\tb", "a\u0085b", "a\u009b31mb", "a\u2028b", "a\u2029b", "a\u202eb", "a\u2066b"]) {
      expect([JSON.stringify(bad), note(bad).success]).toEqual([JSON.stringify(bad), false]);
    }
  });
});
