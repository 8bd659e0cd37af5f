// components/problems.ts: the staff pages' messages are plain sentences, one per problem, without
// the API's attribute names or option values.
import { expect, test } from "vitest";
import { asSentence, fieldProblem, labelledProblem } from "@/components/problems";
import { ZUpdateParticipantRequestSchema } from "@/lib/schemas";

test("a message becomes one sentence in the form's words", () => {
  expect(asSentence("required when delivery_channel is sms")).toBe("Required when the delivery channel is SMS.");
  expect(asSentence('a signatory must also have the "contract:update" permission')).toBe("A signatory must also have the permission to update the contract.");
  expect(asSentence("Type the six digits from the e-mail.")).toBe("Type the six digits from the e-mail.");
  expect(fieldProblem(["must be a valid e-mail address", "must be at most 254 characters"])).toBe("Must be a valid e-mail address.");
  expect(fieldProblem(undefined)).toBeUndefined();
  expect(labelledProblem("E-mail", "must be a valid e-mail address")).toBe("E-mail must be a valid e-mail address.");
  expect(labelledProblem("Signatory", 'a signatory must also have the "contract:update" permission')).toBe("A signatory must also have the permission to update the contract.");
  expect(labelledProblem("Phone number", "required when delivery_channel is sms")).toBe("Phone number is required when the delivery channel is SMS.");
});

test("no message of the participant schema reaches a form with an attribute's API name in it", () => {
  const bodies = [
    { email: "x" },
    { delivery_channel: "sms", phone_number: "" },
    { two_step_authentication_method: "email", email: "" },
    { name: "" },
    { phone_number: "12" },
  ];
  for (const body of bodies) {
    const parsed = ZUpdateParticipantRequestSchema.safeParse(body);
    for (const issue of parsed.error?.issues ?? []) {
      const shown = asSentence(issue.message);
      expect(shown, issue.message).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
      expect(shown).toMatch(/^[A-Z].*[.!?]$/);
    }
  }
});
