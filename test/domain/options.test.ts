import { describe, expect, test } from "vitest";

import {
  defaultParticipantOptions,
  participantProblems,
  requiredAttributes,
  type TResolvedParticipant,
} from "@/lib/domain/options";
import type { TAvailableOptions } from "@/lib/schemas";

/** The usual template: every channel, e-signature and BankID, no two-step or e-mail/SMS two-step. */
const FULL: TAvailableOptions = {
  delivery_channels: [
    { name: "email", preferred: true, required_participant_attributes: ["email"] },
    { name: "sms", preferred: false, required_participant_attributes: ["phone_number"] },
    { name: "email_and_sms", preferred: false, required_participant_attributes: ["email", "phone_number"] },
    { name: "same_device", preferred: false, required_participant_attributes: [] },
    { name: "none", preferred: false, required_participant_attributes: [] },
  ],
  sign_methods: [
    { name: "swedish_bankid", preferred: true },
    { name: "standard_esign", preferred: false },
  ],
  two_step_authentication_methods: [
    { name: "email", preferred: true, required_participant_attributes: ["email"] },
    { name: "none", preferred: false, required_participant_attributes: [] },
    { name: "sms", preferred: false, required_participant_attributes: ["phone_number"] },
  ],
};

const participant = (overrides: Partial<TResolvedParticipant> = {}): TResolvedParticipant => ({
  delivery_channel: "email",
  sign_method: "standard_esign",
  two_step_authentication_method: "none",
  email: "jane@example.com",
  phone_number: "",
  signatory: false,
  _permissions: { "contract:update": false },
  ...overrides,
});

describe("defaultParticipantOptions", () => {
  test("prefers standard_esign and none when offered, even over preferred options", () => {
    expect(defaultParticipantOptions(FULL)).toEqual({
      delivery_channel: "email",
      sign_method: "standard_esign",
      two_step_authentication_method: "none",
    });
  });

  test("otherwise takes the preferred option", () => {
    expect(
      defaultParticipantOptions({
        delivery_channels: [
          { name: "email", preferred: false, required_participant_attributes: ["email"] },
          { name: "sms", preferred: true, required_participant_attributes: ["phone_number"] },
        ],
        sign_methods: [
          { name: "swedish_bankid", preferred: false },
          { name: "norwegian_bankid", preferred: true },
        ],
        two_step_authentication_methods: [
          { name: "email", preferred: false, required_participant_attributes: ["email"] },
          { name: "sms", preferred: true, required_participant_attributes: ["phone_number"] },
        ],
      }),
    ).toEqual({ delivery_channel: "sms", sign_method: "norwegian_bankid", two_step_authentication_method: "sms" });
  });

  test("and the first option when none is preferred", () => {
    expect(
      defaultParticipantOptions({
        delivery_channels: [
          { name: "same_device", preferred: false, required_participant_attributes: [] },
          { name: "email", preferred: false, required_participant_attributes: ["email"] },
        ],
        sign_methods: [
          { name: "handwritten_signature", preferred: false },
          { name: "eid_sign", preferred: false },
        ],
        two_step_authentication_methods: [
          { name: "sms", preferred: false, required_participant_attributes: ["phone_number"] },
          { name: "email", preferred: false, required_participant_attributes: ["email"] },
        ],
      }),
    ).toEqual({ delivery_channel: "same_device", sign_method: "handwritten_signature", two_step_authentication_method: "sms" });
  });

  test("a template that offers nothing yields defaults its own problems reject, not a crash", () => {
    const empty: TAvailableOptions = { delivery_channels: [], sign_methods: [], two_step_authentication_methods: [] };
    const defaults = defaultParticipantOptions(empty);
    const problems = participantProblems(empty, participant(defaults));
    expect(problems.map((p) => [p.path.join("."), p.code, p.message])).toEqual([
      ["delivery_channel", "option_not_offered", "the template offers no delivery channels"],
      ["sign_method", "option_not_offered", "the template offers no sign methods"],
      ["two_step_authentication_method", "option_not_offered", "the template offers no two-step authentication methods"],
    ]);
  });
});

describe("requiredAttributes", () => {
  test.each([
    ["email", "none", ["email"]],
    ["sms", "none", ["phone_number"]],
    ["email_and_sms", "none", ["email", "phone_number"]],
    ["same_device", "none", []],
    ["none", "sms", ["phone_number"]],
    ["same_device", "email", ["email"]],
    ["email", "sms", ["email", "phone_number"]],
  ] as const)("delivery %s with two-step %s requires %j", (delivery_channel, two_step_authentication_method, expected) => {
    expect([...requiredAttributes(FULL, { delivery_channel, two_step_authentication_method })].sort()).toEqual([...expected].sort());
  });

  test("follows the template's data, not a fixed table", () => {
    const lenient: TAvailableOptions = {
      ...FULL,
      delivery_channels: [{ name: "email", preferred: true, required_participant_attributes: [] }],
    };
    expect(requiredAttributes(lenient, { delivery_channel: "email", two_step_authentication_method: "none" }).size).toBe(0);
  });
});

describe("participantProblems", () => {
  test("a complete participant has none", () => {
    expect(participantProblems(FULL, participant())).toEqual([]);
  });

  test("options the template does not offer", () => {
    const narrow: TAvailableOptions = {
      delivery_channels: [{ name: "email", preferred: true, required_participant_attributes: ["email"] }],
      sign_methods: [{ name: "standard_esign", preferred: true }],
      two_step_authentication_methods: [{ name: "none", preferred: true, required_participant_attributes: [] }],
    };
    const problems = participantProblems(
      narrow,
      participant({ delivery_channel: "sms", sign_method: "swedish_bankid", two_step_authentication_method: "sms", phone_number: "+46701234567" }),
    );
    expect(problems).toEqual([
      { path: ["delivery_channel"], code: "option_not_offered", message: "must be one of the template's options: email" },
      { path: ["sign_method"], code: "option_not_offered", message: "must be one of the template's options: standard_esign" },
      { path: ["two_step_authentication_method"], code: "option_not_offered", message: "must be one of the template's options: none" },
    ]);
  });

  test("e-mail delivery needs an e-mail", () => {
    expect(participantProblems(FULL, participant({ email: "" }))).toEqual([
      { path: ["email"], code: "participant_attribute_missing", message: "required when delivery_channel is email" },
    ]);
  });

  test("SMS delivery needs a phone number", () => {
    expect(participantProblems(FULL, participant({ delivery_channel: "sms" }))).toEqual([
      { path: ["phone_number"], code: "participant_attribute_missing", message: "required when delivery_channel is sms" },
    ]);
  });

  test("email_and_sms needs both", () => {
    expect(participantProblems(FULL, participant({ delivery_channel: "email_and_sms", email: "", phone_number: "" }))).toEqual([
      { path: ["email"], code: "participant_attribute_missing", message: "required when delivery_channel is email_and_sms" },
      { path: ["phone_number"], code: "participant_attribute_missing", message: "required when delivery_channel is email_and_sms" },
    ]);
    expect(participantProblems(FULL, participant({ delivery_channel: "email_and_sms", phone_number: "+46701234567" }))).toEqual([]);
  });

  test("SMS two-step needs a phone number even when the channel does not", () => {
    expect(participantProblems(FULL, participant({ two_step_authentication_method: "sms" }))).toEqual([
      { path: ["phone_number"], code: "participant_attribute_missing", message: "required when two_step_authentication_method is sms" },
    ]);
  });

  test("e-mail two-step needs an e-mail when delivery is on the same device", () => {
    expect(
      participantProblems(FULL, participant({ delivery_channel: "same_device", two_step_authentication_method: "email", email: "" })),
    ).toEqual([{ path: ["email"], code: "participant_attribute_missing", message: "required when two_step_authentication_method is email" }]);
  });

  test("an attribute required twice is reported once", () => {
    const problems = participantProblems(FULL, participant({ two_step_authentication_method: "email", email: "" }));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.path).toEqual(["email"]);
  });

  test("whitespace does not satisfy a requirement", () => {
    expect(participantProblems(FULL, participant({ email: "  " }))).toHaveLength(1);
  });

  test("a signatory must be allowed to update the contract", () => {
    expect(participantProblems(FULL, participant({ signatory: true }))).toEqual([
      { path: ["signatory"], code: "signatory_requires_contract_update", message: 'a signatory must also have the "contract:update" permission' },
    ]);
    expect(participantProblems(FULL, participant({ signatory: true, _permissions: { "contract:update": true } }))).toEqual([]);
    expect(participantProblems(FULL, participant({ signatory: false, _permissions: { "contract:update": true } }))).toEqual([]);
  });
});
