import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

import { DomainError } from "@/lib/domain/errors";
import { callbackUrlProblem, isPublicAddress } from "@/lib/domain/webhooks";

export interface TResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type TResolve = (hostname: string) => Promise<TResolvedAddress[]>;

const systemResolve: TResolve = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })) as TResolvedAddress[];

const refused = (detail: string) =>
  new DomainError("webhook_callback_url_refused", `callback_url ${detail}.`, { parameterProblems: { callback_url: [detail] } });

/**
 * The addresses a callback URL may be sent to (docs/security.md "Webhooks"): its form is checked,
 * its host resolved, and unless private addresses are allowed every address must be public — one
 * private address among public ones refuses it (a DNS answer can be made to mix them). Called when a
 * subscription is created and again before every attempt, whose connection then goes to the first
 * address checked here (never resolved a second time), so DNS rebinding cannot slip in between.
 */
export async function checkCallbackUrl(text: string, { allowPrivate, resolve = systemResolve }: { allowPrivate: boolean; resolve?: TResolve }): Promise<{ url: URL; addresses: TResolvedAddress[] }> {
  const problem = callbackUrlProblem(text);
  if (problem) throw refused(problem);
  const url = new URL(text);
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: TResolvedAddress[];
  const literal = isIP(host);
  if (literal) addresses = [{ address: host, family: literal as 4 | 6 }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw refused(`names a host that does not resolve (${host})`);
    }
  }
  if (addresses.length === 0) throw refused(`names a host that does not resolve (${host})`);
  if (!allowPrivate) {
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    if (blocked) throw refused(`resolves to ${blocked.address}, which is not a public address`);
  }
  return { url, addresses };
}
