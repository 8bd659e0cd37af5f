import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface TReceivedMail {
  /** The SMTP envelope's sender and recipients. */
  envelopeFrom: string;
  envelopeTo: string[];
  parsed: ParsedMail;
}

export interface TTestSmtpServer {
  /** smtp://[user:pass@]127.0.0.1:port */
  url: string;
  received: TReceivedMail[];
  /** How many messages were offered (accepted or not). */
  offered: number;
  close(): Promise<void>;
}

export interface TTestSmtpOptions {
  /** Require AUTH PLAIN/LOGIN with these credentials. */
  auth?: { user: string; pass: string };
  /**
   * The reply to the n-th message offered (0-based), after its data: undefined accepts it, a
   * code (4xx transient, 5xx permanent) refuses it.
   */
  reply?: (n: number) => { code: number; message: string } | undefined;
  /** The reply to RCPT TO for an address, as a server that knows no such mailbox gives it: undefined accepts it. */
  refuseRecipient?: (address: string) => { code: number; message: string } | undefined;
  /** Wait this long before answering each message (to interleave concurrent senders). */
  delayMs?: number;
}

/**
 * A real SMTP server on 127.0.0.1 (a free port), without TLS, that records what it accepts. Its
 * socket does not keep the test process alive; close() stops it.
 */
export async function startTestSmtpServer(options: TTestSmtpOptions = {}): Promise<TTestSmtpServer> {
  const state: TTestSmtpServer = { url: "", received: [], offered: 0, close: async () => {} };
  const server = new SMTPServer({
    // No STARTTLS: nodemailer would upgrade to it and refuse the self-signed certificate.
    disabledCommands: options.auth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) return callback(null, { user: auth.username });
      callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      const refusal = options.refuseRecipient?.(address.address);
      if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      callback();
    },
    onData(stream, session, callback) {
      const n = state.offered++;
      simpleParser(stream)
        .then(async (parsed) => {
          if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
          const reply = options.reply?.(n);
          if (reply) {
            const error = Object.assign(new Error(reply.message), { responseCode: reply.code });
            return callback(error);
          }
          state.received.push({
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            parsed,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  server.server.unref();
  const { port } = server.server.address() as AddressInfo;
  const credentials = options.auth ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@` : "";
  state.url = `smtp://${credentials}127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

/** The text of the `To`/`From` header of a parsed message. */
export function addressText(value: ParsedMail["to"] | ParsedMail["from"]): string {
  if (!value) return "";
  return (Array.isArray(value) ? value : [value]).map((a) => a.text).join(", ");
}
