import { describe, expect, it } from "vitest";
import { boxProblems, ownerProblems, uploadedPdfProblems } from "@/lib/domain/placement";

const box = { page: 1, x: 0.1, y: 0.1, width: 0.3, height: 0.1 };
const signatories = new Map([[1, "Åsa"]]);
const participants = new Set([1, 2]);
const dataFields = new Set([7]);

describe("where a box may lie", () => {
  it("on a page the PDF has, inside its edges (a float's rounding allowed)", () => {
    expect(boxProblems(box, 1)).toEqual({});
    expect(boxProblems({ ...box, x: 0.7, width: 0.3 }, 1)).toEqual({});
    expect(boxProblems({ ...box, page: 2 }, 1)).toEqual({ page: ["is 2, but the PDF has 1 page"] });
    expect(boxProblems({ ...box, x: 0.8 }, 1).width).toEqual(["runs off the page's right edge: x + width is 1.1, at most 1"]);
    expect(boxProblems({ ...box, y: 0.95 }, 1).height).toEqual(["runs off the page's bottom edge: y + height is 1.05, at most 1"]);
    // Past 1 by less than a millionth: said with the digits that show it.
    expect(boxProblems({ ...box, x: 0.9, width: 0.1000001 }, 1).width).toEqual(["runs off the page's right edge: x + width is 1.0000001, at most 1"]);
  });

  it("blames the position a request moved, the size it changed, or the size when it sent both", () => {
    expect(Object.keys(boxProblems({ ...box, x: 0.8 }, 1, new Set(["x"])))).toEqual(["x"]);
    expect(Object.keys(boxProblems({ ...box, y: 0.95 }, 1, new Set(["y", "page"])))).toEqual(["y"]);
    expect(Object.keys(boxProblems({ ...box, width: 0.95 }, 1, new Set(["width"])))).toEqual(["width"]);
    expect(Object.keys(boxProblems({ ...box, x: 0.8 }, 1, new Set(["x", "width"])))).toEqual(["width"]);
  });
});

describe("whom a box is for", () => {
  it("a signer's kinds name a signatory; a data field's kind a data field of the contract; never both", () => {
    expect(ownerProblems({ kind: "signature", participantId: 1, dataFieldId: null }, signatories, participants, dataFields)).toEqual({});
    expect(ownerProblems({ kind: "name", participantId: 2, dataFieldId: null }, signatories, participants, dataFields).participant_id![0]).toMatch(/does not sign/);
    expect(ownerProblems({ kind: "date_signed", participantId: 3, dataFieldId: null }, signatories, participants, dataFields).participant_id![0]).toMatch(/names no participant/);
    expect(Object.keys(ownerProblems({ kind: "signature", participantId: 1, dataFieldId: 7 }, signatories, participants, dataFields))).toEqual(["data_field_id"]);
    expect(ownerProblems({ kind: "data_field", participantId: null, dataFieldId: 7 }, signatories, participants, dataFields)).toEqual({});
    expect(ownerProblems({ kind: "data_field", participantId: null, dataFieldId: 8 }, signatories, participants, dataFields).data_field_id![0]).toMatch(/names no data field/);
    expect(Object.keys(ownerProblems({ kind: "data_field", participantId: 1, dataFieldId: null }, signatories, participants, dataFields)).sort()).toEqual(["data_field_id", "participant_id"]);
  });
});

describe("what publishing an uploaded PDF waits for", () => {
  const people = [
    { id: 1, name: "Åsa", party: "Acme", signatory: true },
    { id: 2, name: "Rita", party: "Acme", signatory: false },
  ];
  const fields = new Map([[7, { name: "Notes", value: "" }]]);
  it("a signatory without a signature box (a name box is not one), a box of someone who does not sign, an empty data field's box, each once", () => {
    const problems = uploadedPdfProblems(
      people,
      [
        { kind: "name", participantId: 1, dataFieldId: null, page: 1 },
        { kind: "date_signed", participantId: 2, dataFieldId: null, page: 2 },
        { kind: "data_field", participantId: null, dataFieldId: 7, page: 3 },
        { kind: "data_field", participantId: null, dataFieldId: 7, page: 3 },
      ],
      fields,
    );
    expect(problems.map((p) => p.message)).toEqual([
      "Åsa (Acme) signs but has no signature box on the PDF.",
      "A date signed box on page 2 belongs to Rita, who does not sign.",
      "The data field Notes shown on page 3 has no value.",
    ]);
    expect(uploadedPdfProblems(people, [{ kind: "signature", participantId: 1, dataFieldId: null, page: 1 }], fields)).toEqual([]);
  });
});
