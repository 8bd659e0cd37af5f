import { expect, test } from "vitest";
import type { TAvailableOptions } from "@/lib/domain/options";
import { layoutText, textProblems } from "@/lib/domain/contract-document";
import { publishProblems, type TReadinessParticipant, type TReadinessParty } from "@/lib/domain/publish-readiness";

// A template like the demo's "Supplier purchase order": two-step by e-mail or SMS, never "none".
const available: TAvailableOptions = {
  delivery_channels: [{ name: "email", preferred: true, required_participant_attributes: ["email"] }],
  sign_methods: [{ name: "standard_esign", preferred: true }],
  two_step_authentication_methods: [
    { name: "email", preferred: true, required_participant_attributes: ["email"] },
    { name: "sms", preferred: false, required_participant_attributes: ["phone_number"] },
  ],
};

const person = (over: Partial<TReadinessParticipant>): TReadinessParticipant => ({
  id: 1,
  name: "P",
  email: "p@example.org",
  phoneNumber: "",
  deliveryChannel: "email",
  signMethod: "standard_esign",
  twoStepMethod: "email",
  signatory: true,
  canUpdateContract: true,
  signOrder: null,
  ...over,
});

const parties = (owner: TReadinessParticipant, counter: TReadinessParticipant): TReadinessParty[] => [
  { id: 1, name: "Us", myParty: true, participants: [owner] },
  { id: 2, name: "Them", myParty: false, participants: [counter] },
];

test("an organizer who does not sign needs no sign method or two-step method the template offers", () => {
  const organizer = person({ id: 1, name: "Org", twoStepMethod: "none", signatory: false });
  expect(publishProblems("draft", parties(organizer, person({ id: 2 })), available)).toEqual([]);
});

test("a signatory does: the same options on a signatory are reported, with who and where", () => {
  const signer = person({ id: 1, name: "Org", twoStepMethod: "none", signatory: true });
  expect(publishProblems("draft", parties(signer, person({ id: 2 })), available)).toEqual([
    { path: "parties.0.participants.0.two_step_authentication_method", message: "Org (Us): must be one of the template's options: email, sms.", partyId: 1, participantId: 1 },
  ]);
});

test("a signatory with SMS two-step needs a phone number; a non-signatory with it does not", () => {
  const sms = { twoStepMethod: "sms" as const };
  expect(publishProblems("draft", parties(person({ signatory: false, ...sms }), person({ id: 2, ...sms })), available).map((p) => p.path)).toEqual([
    "parties.1.participants.0.phone_number",
  ]);
});

test("a counterparty without a signatory, no counterparty, and not a draft", () => {
  expect(publishProblems("draft", parties(person({ signatory: false }), person({ id: 2, signatory: false })), available).map((p) => p.message)).toEqual(["Them has no signatory."]);
  expect(publishProblems("pending", [{ id: 1, name: "Us", myParty: true, participants: [] }], available).map((p) => p.path)).toEqual(["state", "parties"]);
});

test("an ordered contract needs a sign_order on every signatory, numbered 1, 2, … without gaps", () => {
  const organizer = person({ id: 1, name: "Org", twoStepMethod: "none", signatory: false });
  const ordered = (orders: (number | null)[]) =>
    publishProblems("draft", [{ id: 1, name: "Us", myParty: true, participants: [organizer] }, { id: 2, name: "Them", myParty: false, participants: orders.map((signOrder, i) => person({ id: 10 + i, name: `S${i}`, signOrder })) }], available, "ordered").map((p) => p.path);
  expect(ordered([1, 1, 2])).toEqual([]);
  expect(ordered([1, null])).toEqual(["parties.1.participants.1.sign_order"]);
  expect(ordered([1, 3])).toEqual(["parties.1.participants.1.sign_order"]);
  expect(ordered([2])).toEqual(["parties.1.participants.0.sign_order"]);
  // Parallel: the numbers are kept but not used, so nothing is asked of them.
  expect(publishProblems("draft", parties(organizer, person({ id: 2, signOrder: 3 })), available, "parallel")).toEqual([]);
});

test("the text's readiness reads a placeholder's field as the document does: of two sharing a custom id, the first", () => {
  const body = { sections: [{ heading: "Order", text: "Against PO {{field.po}}." }] };
  const emptyFirst = [
    { customId: "po", name: "PO number", value: " " },
    { customId: "po", name: "PO (copy)", value: "PO-7" },
  ];
  const filledFirst = [...emptyFirst].reverse();
  for (const fields of [emptyFirst, filledFirst]) {
    const missing = layoutText(body, fields, [], []).missingFields;
    expect(textProblems(body, fields).map((p) => p.missingDataField)).toEqual(missing);
  }
  expect(textProblems(body, emptyFirst).map((p) => p.message)).toEqual(["The text needs a value for the data field PO number (po)."]);
  expect(textProblems(body, filledFirst)).toEqual([]);
});
