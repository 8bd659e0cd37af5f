import { describe, expect, test } from "vitest";

import {
  ZCreateParticipantRequestSchema,
  ZEmailSchema,
  ZParticipantSchema,
  ZPhoneNumberSchema,
  ZUpdateParticipantRequestSchema,
} from "@/lib/schemas";

import { problemsOf } from "./problems";

const UPDATABLE = [
  "_permissions",
  "delivery_channel",
  "email",
  "identification_number",
  "name",
  "phone_number",
  "sign_method",
  "signatory",
  "title",
  "two_step_authentication_method",
];

describe("ZUpdateParticipantRequestSchema", () => {
  test("accepts the empty object, which changes nothing", () => {
    expect(ZUpdateParticipantRequestSchema.parse({})).toEqual({});
  });

  test("accepts all ten updatable attributes at once", () => {
    const body = {
      _permissions: { "contract:update": true },
      delivery_channel: "sms",
      email: "jane@example.com",
      identification_number: "19800101-1234",
      name: "Jane Doe",
      phone_number: "+46701234567",
      sign_method: "swedish_bankid",
      signatory: true,
      title: "CFO",
      two_step_authentication_method: "email",
    };
    expect(Object.keys(body).sort()).toEqual(UPDATABLE);
    expect(ZUpdateParticipantRequestSchema.parse(body)).toEqual(body);
  });

  test("rejects unknown attributes, naming them", () => {
    expect(problemsOf(ZUpdateParticipantRequestSchema, { name: "Jane", nickname: "J" })).toEqual({
      "": ['"nickname" is not a known attribute'],
    });
  });

  test.each(["id", "organizer", "my_participant", "sign_state", "delivery_status", "_private_ownerside", "_links"])(
    "rejects the read-only attribute %s",
    (key) => {
      expect(problemsOf(ZUpdateParticipantRequestSchema, { [key]: "x" })).toEqual({ "": [`"${key}" is read-only`] });
    },
  );

  test.each(UPDATABLE)("rejects null for %s", (key) => {
    const problems = problemsOf(ZUpdateParticipantRequestSchema, { [key]: null });
    expect(Object.keys(problems)).toEqual([key]);
    expect(problems[key]?.[0]).toMatch(/^must not be null/);
  });

  test("tells how to clear a text instead of sending null", () => {
    expect(problemsOf(ZUpdateParticipantRequestSchema, { title: null })).toEqual({
      title: ['must not be null; send "" to clear it'],
    });
  });

  test("accepts \"\" to clear title, phone number, e-mail and identification number, but not name", () => {
    const cleared = { title: "", phone_number: "", email: "", identification_number: "" };
    expect(ZUpdateParticipantRequestSchema.parse(cleared)).toEqual(cleared);
    expect(problemsOf(ZUpdateParticipantRequestSchema, { name: "  " })).toEqual({ name: ["must not be empty"] });
  });

  test("checks lengths", () => {
    expect(ZUpdateParticipantRequestSchema.safeParse({ name: "x".repeat(100), title: "t".repeat(100) }).success).toBe(true);
    expect(problemsOf(ZUpdateParticipantRequestSchema, { name: "x".repeat(101), title: "t".repeat(101) })).toEqual({
      name: ["must be at most 100 characters"],
      title: ["must be at most 100 characters"],
    });
    expect(problemsOf(ZUpdateParticipantRequestSchema, { identification_number: "1".repeat(26) })).toEqual({
      identification_number: ["must be at most 25 characters"],
    });
  });

  test("lists the accepted values of an enumeration", () => {
    expect(problemsOf(ZUpdateParticipantRequestSchema, { delivery_channel: "fax" })).toEqual({
      delivery_channel: ["must be one of: email, sms, same_device, none, email_and_sms"],
    });
    expect(problemsOf(ZUpdateParticipantRequestSchema, { two_step_authentication_method: "bankid" })).toEqual({
      two_step_authentication_method: ["must be one of: none, email, sms"],
    });
  });

  test("wants booleans, not strings, and a complete strict _permissions object", () => {
    expect(problemsOf(ZUpdateParticipantRequestSchema, { signatory: "true" })).toEqual({
      signatory: ["must be true or false"],
    });
    expect(problemsOf(ZUpdateParticipantRequestSchema, { _permissions: {} })).toEqual({
      "_permissions.contract:update": ["is required"],
    });
    expect(problemsOf(ZUpdateParticipantRequestSchema, { _permissions: { "contract:update": true, "contract:delete": true } })).toEqual({
      _permissions: ['"contract:delete" is not a known attribute'],
    });
  });

  test("rejects a body that is not an object", () => {
    expect(problemsOf(ZUpdateParticipantRequestSchema, [])).toEqual({ "": ["must be an object"] });
    expect(problemsOf(ZUpdateParticipantRequestSchema, "name=Jane")).toEqual({ "": ["must be an object"] });
  });
});

describe("ZCreateParticipantRequestSchema", () => {
  test("requires only a name", () => {
    expect(ZCreateParticipantRequestSchema.parse({ name: " Jane " })).toEqual({ name: "Jane" });
    expect(problemsOf(ZCreateParticipantRequestSchema, { email: "jane@example.com" })).toEqual({ name: ["is required"] });
  });

  test("is strict like the update", () => {
    expect(problemsOf(ZCreateParticipantRequestSchema, { name: "Jane", sign_state: "signed" })).toEqual({
      "": ['"sign_state" is read-only'],
    });
  });
});

describe("field formats", () => {
  test.each(["jane@example.com", "jane.doe+contracts@mail.example.co.uk", ""])("e-mail %j is accepted", (email) => {
    expect(ZEmailSchema.parse(email)).toBe(email);
  });

  test("e-mail is trimmed", () => {
    expect(ZEmailSchema.parse("  jane@example.com ")).toBe("jane@example.com");
  });

  test.each(["jane", "jane@", "@example.com", "jane@example", "jane doe@example.com"])("e-mail %j is rejected", (email) => {
    expect(problemsOf(ZEmailSchema, email)).toEqual({ "": ["must be a valid e-mail address"] });
  });

  test.each(["+46701234567", "+1234567", "+123456789012345", ""])("phone number %j is accepted", (phone) => {
    expect(ZPhoneNumberSchema.parse(phone)).toBe(phone);
  });

  test.each(["0701234567", "46701234567", "+123456", "+1234567890123456", "+46 70 123 45 67", "+0701234567", "+4670123456a"])(
    "phone number %j is rejected",
    (phone) => {
      expect(problemsOf(ZPhoneNumberSchema, phone)).toEqual({ "": ["must be in E.164 format, e.g. +46701234567"] });
    },
  );
});

describe("ZParticipantSchema (response)", () => {
  const participant = {
    id: 7,
    name: "Jane Doe",
    title: "",
    email: "jane@example.com",
    phone_number: "",
    identification_number: "",
    delivery_channel: "email",
    delivery_status: "not_sent",
    sign_method: "standard_esign",
    sign_state: "undecided",
    sign_state_updated_time: null,
    signatory: true,
    sign_order: null,
    delegated_to_id: null,
    two_step_authentication_method: "none",
    organizer: false,
    my_participant: false,
    _permissions: { "contract:update": true },
    _private_ownerside: {
      created_time: "2024-05-01T09:30:00.000+00:00",
      first_visited_time: null,
      last_visited_time: null,
      updated_time: "2024-05-01T09:30:00.000+00:00",
      visits: 0,
      two_step_locked_time: null,
      delivery_failed_time: null,
      delivery_failure: "",
      reminders_sent: 0,
      last_reminded_time: null,
      invited_time: null,
      delegated_time: null,
    },
  };

  test("describes a participant with and without _links", () => {
    expect(ZParticipantSchema.parse(participant)).toEqual(participant);
    const links = { contract: { href: "https://x/v1/contracts/1" }, party: { href: "https://x/v1/contracts/1/parties/2" }, self: { href: "https://x/v1/contracts/1/parties/2/participants/7" } };
    expect(ZParticipantSchema.parse({ ...participant, _links: links })._links).toEqual(links);
  });

  test("rejects a timestamp without the +00:00 offset", () => {
    const bad = { ...participant, _private_ownerside: { ...participant._private_ownerside, updated_time: "2024-05-01T09:30:00Z" } };
    expect(ZParticipantSchema.safeParse(bad).success).toBe(false);
  });
});
