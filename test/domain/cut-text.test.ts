// Text cut to a column's or a header's length never ends in half a character.
import { describe, expect, it } from "vitest";
import { cutText } from "@/lib/domain/cut-text";
import { attachmentName } from "@/lib/domain/file-content";

const wellFormed = (text: string) => text.isWellFormed() && !text.includes("\uFFFD");

describe("cutText", () => {
  it("keeps a surrogate pair whole or leaves it out, and cuts other text at the length", () => {
    expect(cutText("ab🙂cd", 3)).toBe("ab");
    expect(cutText("ab🙂cd", 4)).toBe("ab🙂");
    expect(cutText("abcdef", 4)).toBe("abcd");
    expect(cutText("ab", 4)).toBe("ab");
  });

  it("names an upload with an emoji at the 200th character without a lone half of it", () => {
    const name = attachmentName(`${"a".repeat(199)}🙂bbbbb.png`, "image/png");
    expect([name, wellFormed(name)]).toEqual([`${"a".repeat(199)}.png`, true]);
    expect(attachmentName(`${"a".repeat(198)}🙂bbbbb.png`, "image/png")).toBe(`${"a".repeat(198)}🙂.png`);
  });
});
