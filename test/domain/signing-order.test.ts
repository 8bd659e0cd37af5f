import { expect, test } from "vitest";
import { invitedAtPublishing, isTheirTurn, openStage } from "@/lib/domain/signing-order";

const s = (signOrder: number | null, signState = "undecided", signatory = true) => ({ signatory, signOrder, signState });

test("the open stage is the lowest sign_order of a signatory who has not signed", () => {
  expect(openStage("ordered", [s(1), s(1), s(2)])).toBe(1);
  expect(openStage("ordered", [s(1, "signed"), s(1), s(2)])).toBe(1);
  expect(openStage("ordered", [s(1, "signed"), s(1, "signed"), s(2)])).toBe(2);
  expect(openStage("ordered", [s(1, "signed"), s(2, "signed")])).toBeNull();
  // A reader's number is no stage.
  expect(openStage("ordered", [s(1, "undecided", false), s(2)])).toBe(2);
  expect(openStage("parallel", [s(1), s(2)])).toBeNull();
});

test("only the open stage's signatories may act on an ordered contract; everyone on a parallel one", () => {
  const all = [s(1, "signed"), s(2), s(2), s(3)];
  expect(isTheirTurn("ordered", all, all[1]!)).toBe(true);
  expect(isTheirTurn("ordered", all, all[3]!)).toBe(false);
  expect(isTheirTurn("ordered", all, s(3, "undecided", false))).toBe(true);
  expect(isTheirTurn("parallel", all, all[3]!)).toBe(true);
});

test("publishing itself invites everyone on a parallel contract and, on an ordered one, who does not sign", () => {
  expect(invitedAtPublishing("ordered", s(1))).toBe(false);
  expect(invitedAtPublishing("ordered", s(2))).toBe(false);
  expect(invitedAtPublishing("ordered", s(2, "undecided", false))).toBe(true);
  expect(invitedAtPublishing("parallel", s(2))).toBe(true);
});
