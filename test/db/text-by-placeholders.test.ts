import { expect, it } from "vitest";
import { SqlParams, textByPlaceholders } from "@/lib/db/sql";
import { contractDetailPreload } from "@/lib/api/json/contract";

it("writes a text once for each numbering of its placeholders, and keeps at most `max` of them", () => {
  let written = 0;
  const text = textByPlaceholders((a: string, b: string) => (written++, `${a} + ${b}`), 2);
  expect(text("$1", "$2")).toBe("$1 + $2");
  expect(text("$1", "$2")).toBe("$1 + $2");
  expect(written).toBe(1);
  expect(text("$3", "$4")).toBe("$3 + $4");
  expect(text("$5", "$6")).toBe("$5 + $6");
  expect(text("$5", "$6")).toBe("$5 + $6");
  // Past the bound nothing more is kept: written again each time, never wrong.
  expect(written).toBe(4);
  expect(text("$1", "$2")).toBe("$1 + $2");
  expect(written).toBe(4);
});

it("numbers a kept preload's placeholders from where its statement is", () => {
  const at = (before: number) => {
    const q = new SqlParams();
    for (let i = 0; i < before; i++) q.p(i);
    const text = contractDetailPreload(7, "http://a.example")(q);
    return { text, values: q.values.slice(before) };
  };
  const [three, five, threeAgain] = [at(3), at(5), at(3)];
  expect(three.values).toEqual(["http://a.example", 7]);
  expect(three.text).toContain("$4::text");
  expect(three.text).toContain("c.id = $5::int");
  expect(five.text).toContain("c.id = $7::int");
  expect(threeAgain.text).toBe(three.text);
});
