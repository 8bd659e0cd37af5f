// Names are text (issue 38): contract, party, participant and API token names refuse control
// characters, with the field named, in the one zod module the API and the forms share.
import { describe, expect, test } from "vitest";
import { ZCreateApiTokenRequestSchema, ZCreateContractRequestSchema, ZCreatePartyRequestSchema, ZDeclineRequestSchema, ZDelegateRequestSchema, ZUpdateParticipantRequestSchema } from "@/lib/schemas";
import { ZWithdrawContractRequestSchema } from "@/lib/schemas/publish";
import { problemsOf } from "./problems";

const SENTENCE = "must be one line of text, without line breaks, tabs or other control characters";
const BAD = ["Line\nbreak", "Carriage\rreturn", "Tab\there", "Nul\u0000l", "Del\u007f", "C1\u0085next line", "Sep\u2028arator", "Bidi \u202eevil", "Isolate\u2066x"];

describe("names refuse control characters", () => {
  test.each(BAD)("%j is refused everywhere a name is written", (name) => {
    expect(problemsOf(ZUpdateParticipantRequestSchema, { name })).toEqual({ name: [SENTENCE] });
    expect(problemsOf(ZCreatePartyRequestSchema, { type: "company", name, participants: [{ name: "Ann", email: "ann@example.org" }] })).toEqual({ name: [SENTENCE] });
    expect(problemsOf(ZCreatePartyRequestSchema, { type: "company", name: "Acme", participants: [{ name, email: "ann@example.org" }] })).toEqual({ "participants.0.name": [SENTENCE] });
    expect(problemsOf(ZCreateContractRequestSchema, { workspace_id: 1, template_id: 1, name })).toMatchObject({ name: [SENTENCE] });
    expect(problemsOf(ZCreateApiTokenRequestSchema, { name })).toEqual({ name: [SENTENCE] });
    // A delegate's name, typed on the signing page, goes into the mail that invites them.
    expect(problemsOf(ZDelegateRequestSchema, { name, email: "bo@example.org" })).toEqual({ name: ["The name must be one line of text, without line breaks, tabs or other control characters."] });
  });

  test("letters of every script, punctuation and inner spaces are names; edges are trimmed", () => {
    for (const name of ["Åsa Öberg-Lindqvist", "O'Brien & Söner AB", "محمد", "李小龙", "Zoë (née Smith)"]) {
      expect(ZUpdateParticipantRequestSchema.parse({ name }).name).toBe(name);
    }
    expect(ZUpdateParticipantRequestSchema.parse({ name: "  Ann Andersson \n" }).name).toBe("Ann Andersson");
  });

  test("a reason (declining, delegating, withdrawing) keeps its line breaks, CR LF as LF", () => {
    expect(ZDeclineRequestSchema.parse({ reason: "Too long.\nToo expensive." }).reason).toBe("Too long.\nToo expensive.");
    expect(ZDelegateRequestSchema.parse({ name: "Bo", email: "bo@example.org", reason: "Away.\r\nBack in May." }).reason).toBe("Away.\nBack in May.");
    expect(ZWithdrawContractRequestSchema.parse({ reason: "Wrong price.\r\nNew offer follows." }).reason).toBe("Wrong price.\nNew offer follows.");
  });

  test.each(BAD.filter((text) => !/[\r\n]/.test(text)))("a reason refuses %j, on the signing page and in the API alike", (text) => {
    expect(Object.keys(problemsOf(ZDeclineRequestSchema, { reason: text }))).toEqual(["reason"]);
    expect(Object.keys(problemsOf(ZDelegateRequestSchema, { name: "Bo", email: "bo@example.org", reason: text }))).toEqual(["reason"]);
    expect(Object.keys(problemsOf(ZWithdrawContractRequestSchema, { reason: text }))).toEqual(["reason"]);
  });
});
