import { describe, expect, test } from "vitest";

import { ZCreatePartyRequestSchema, ZPartySchema } from "@/lib/schemas";

import { problemsOf } from "./problems";

const jane = { name: "Jane Doe", email: "jane@example.com" };

describe("ZCreatePartyRequestSchema: company", () => {
  test("accepts a company with participants and upper-cases its country code", () => {
    const party = ZCreatePartyRequestSchema.parse({
      type: "company",
      name: "Acme AB",
      country_code: " se ",
      identification_number: "556677-8899",
      participants: [jane],
    });
    expect(party).toEqual({
      type: "company",
      name: "Acme AB",
      country_code: "SE",
      identification_number: "556677-8899",
      participants: [jane],
    });
  });

  test.each(["no", "No", "NO"])("country code %j becomes NO", (code) => {
    const party = ZCreatePartyRequestSchema.parse({ type: "company", name: "A", country_code: code, participants: [jane] });
    expect(party.country_code).toBe("NO");
  });

  test.each(["XX", "SWE", "S", "EU", "12"])("rejects the country code %j", (code) => {
    expect(problemsOf(ZCreatePartyRequestSchema, { type: "company", name: "A", country_code: code, participants: [jane] })).toEqual({
      country_code: ["must be a two-letter ISO 3166-1 country code, e.g. SE"],
    });
  });

  test("requires a name and at least one participant", () => {
    expect(problemsOf(ZCreatePartyRequestSchema, { type: "company" })).toEqual({
      name: ["is required"],
      participants: ["is required"],
    });
    expect(problemsOf(ZCreatePartyRequestSchema, { type: "company", name: "A", participants: [] })).toEqual({
      participants: ["a company party needs at least one participant"],
    });
  });

  test("refuses the individual form `participant`", () => {
    const problems = problemsOf(ZCreatePartyRequestSchema, { type: "company", name: "A", participant: jane });
    expect(problems.participants).toEqual(["is required"]);
    expect(problems[""]?.[0]).toMatch(/^"participant" is for an individual party/);
  });

  test("reports a participant's problems at its path", () => {
    expect(
      problemsOf(ZCreatePartyRequestSchema, {
        type: "company",
        name: "A",
        participants: [jane, { name: "Bob", email: "bob" }],
      }),
    ).toEqual({ "participants.1.email": ["must be a valid e-mail address"] });
  });

  test("checks the identification number's length", () => {
    expect(
      problemsOf(ZCreatePartyRequestSchema, { type: "company", name: "A", identification_number: "9".repeat(26), participants: [jane] }),
    ).toEqual({ identification_number: ["must be at most 25 characters"] });
  });
});

describe("ZCreatePartyRequestSchema: individual", () => {
  test("accepts exactly one participant, and tolerates name and identification_number", () => {
    const party = ZCreatePartyRequestSchema.parse({
      type: "individual",
      name: "ignored",
      identification_number: "ignored",
      country_code: "dk",
      participant: jane,
    });
    expect(party.type).toBe("individual");
    expect(party.country_code).toBe("DK");
    expect(party.type === "individual" && party.participant).toEqual(jane);
  });

  test("requires `participant` and refuses `participants`", () => {
    expect(problemsOf(ZCreatePartyRequestSchema, { type: "individual" })).toEqual({ participant: ["is required"] });
    const problems = problemsOf(ZCreatePartyRequestSchema, { type: "individual", participant: jane, participants: [jane] });
    expect(problems).toEqual({ "": ['"participants" is for a company party; an individual party has exactly one "participant"'] });
  });

  test("checks the participant", () => {
    expect(problemsOf(ZCreatePartyRequestSchema, { type: "individual", participant: { email: "jane@example.com" } })).toEqual({
      "participant.name": ["is required"],
    });
  });
});

describe("ZCreatePartyRequestSchema: type", () => {
  test("is required and must be company or individual", () => {
    expect(problemsOf(ZCreatePartyRequestSchema, { name: "A", participants: [jane] })).toEqual({ type: ["is required"] });
    expect(problemsOf(ZCreatePartyRequestSchema, { type: "government", name: "A" })).toEqual({
      type: ["must be one of: company, individual"],
    });
  });

  test("a party must be an object", () => {
    expect(problemsOf(ZCreatePartyRequestSchema, "Acme")).toEqual({ "": ["must be an object"] });
    expect(problemsOf(ZCreatePartyRequestSchema, null)).toEqual({ "": ["must not be null"] });
  });
});

describe("ZPartySchema (response)", () => {
  const participant = {
    id: 3,
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
    signatory: false,
    sign_order: null,
    delegated_to_id: null,
    two_step_authentication_method: "none",
    organizer: false,
    my_participant: false,
    _permissions: { "contract:update": false },
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
  const base = {
    id: 2,
    name: "Acme AB",
    country_code: "SE",
    identification_number: "",
    my_party: false,
    _private_ownerside: { created_time: "2024-05-01T09:30:00.000+00:00", updated_time: null },
  };

  test("a company carries participants, an individual one participant", () => {
    expect(ZPartySchema.parse({ ...base, type: "company", participants: [participant] })).toMatchObject({ participants: [participant] });
    expect(ZPartySchema.parse({ ...base, type: "individual", participant })).toMatchObject({ participant });
    expect(ZPartySchema.safeParse({ ...base, type: "individual", participants: [participant] }).success).toBe(false);
    expect(ZPartySchema.safeParse({ ...base, type: "company", participant }).success).toBe(false);
  });
});
