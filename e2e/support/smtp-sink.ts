// A real SMTP server on 127.0.0.1 for the browser tests: it accepts every message, parses it, and
// lets a test wait for the one sent to an address. It stops with the test (stop()).
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface TReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

export async function startSmtpSink() {
  const received: TReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          for (const rcpt of session.envelope.rcptTo) {
            received.push({
              to: rcpt.address.toLowerCase(),
              from: mail.from?.text ?? "",
              subject: mail.subject ?? "",
              text: mail.text ?? "",
              attachments: mail.attachments.map((a) => ({ filename: a.filename ?? "", contentType: a.contentType, content: a.content })),
            });
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.server.address() as { port: number }).port));
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The first message to `to` whose subject matches, once it has arrived (at most `timeoutMs`). */
    async waitFor(to: string, subject: RegExp, timeoutMs = 20_000): Promise<TReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((m) => m.to === to.toLowerCase() && subject.test(m.subject));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms; received: ${JSON.stringify(received.map((m) => [m.to, m.subject]))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
