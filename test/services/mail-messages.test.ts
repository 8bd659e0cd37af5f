// The mail texts (lib/services/mail/messages.ts): what someone typed reaches a subject and a body
// as text, never as something the outbox or a mail reader would read as more.
import { describe, expect, it } from "vitest";
import { declinedMail, invitationMail, signedMail } from "@/lib/services/mail/messages";

describe("typed text in mail", () => {
  const encodedWord = "Invoice =?UTF-8?B?4oCuZmRwLmV4ZQ==?="; // a reader shows "Invoice ‮fdp.exe" (U+202E)

  it("never opens an encoded word in a subject, whichever name carries it", () => {
    const subjects = [
      signedMail({ participantName: "Ann", contractName: encodedWord }).subject,
      declinedMail({ participantName: "Ann", contractName: encodedWord, declinedBy: "Bo", reason: "" }).subject,
      invitationMail({ participantName: "Ann", senderName: "Bo", contractName: "Deal", signatory: true, subject: encodedWord, message: undefined, expiresAt: new Date("2027-01-01T00:00:00Z") }).subject,
    ];
    for (const subject of subjects) {
      expect(subject).not.toContain("=?");
      expect(subject).toContain("Invoice = ?UTF-8?B?4oCuZmRwLmV4ZQ");
    }
  });

  it("keeps typed braces out of the outbox's placeholders", () => {
    expect(signedMail({ participantName: "{{code}}", contractName: "Deal" }).body).not.toContain("{{code}}");
  });
});
