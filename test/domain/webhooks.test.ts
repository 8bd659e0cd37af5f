// lib/domain/webhooks.ts and the callback URL check: which URLs and addresses a webhook may reach,
// and the retry schedule.
import { expect, test } from "vitest";

import { callbackUrlProblem, GIVE_UP_AFTER_MS, isPublicAddress, nextRetryDelay } from "@/lib/domain/webhooks";
import { checkCallbackUrl, type TResolvedAddress } from "@/lib/services/webhooks/check-callback-url";

test.each([
  "127.0.0.1", "127.255.255.254", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.255", "192.168.1.1",
  "169.254.169.254", "100.64.0.1", "100.127.255.255", "0.0.0.0", "0.1.2.3", "224.0.0.1", "239.255.255.250",
  "255.255.255.255", "240.0.0.1", "192.0.2.1", "198.51.100.7", "203.0.113.9", "198.18.0.1", "192.0.0.8",
  "::", "::1", "fe80::1", "fe80::1%eth0", "fc00::1", "fd12:3456::1", "ff02::1", "fec0::1", "2001:db8::1",
  "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.1.2.3", "::ffff:169.254.169.254", "::ffff:192.168.0.1", "::127.0.0.1",
  "64:ff9b::10.0.0.1", "64:ff9b::7f00:1", "2002:c0a8:0101::1", "2002:7f00:1::", "100::1", "2001::1",
  "not an address", "", "localhost",
])("%s is not public", (address) => {
  expect(isPublicAddress(address)).toBe(false);
});

test.each(["1.1.1.1", "8.8.8.8", "93.184.216.34", "172.32.0.1", "172.15.255.255", "100.128.0.1", "100.63.255.255", "192.169.0.1", "11.0.0.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:0808:0808::1"])(
  "%s is public",
  (address) => {
    expect(isPublicAddress(address)).toBe(true);
  },
);

test("callback URLs: http(s) only, no credentials, no fragment", () => {
  expect(callbackUrlProblem("https://example.com/hook")).toBeNull();
  expect(callbackUrlProblem("http://example.com:8080/hook?x=1")).toBeNull();
  expect(callbackUrlProblem("ftp://example.com/")).toMatch(/http/);
  expect(callbackUrlProblem("file:///etc/passwd")).toMatch(/http/);
  expect(callbackUrlProblem("javascript:alert(1)")).toMatch(/http/);
  expect(callbackUrlProblem("https://user:pass@example.com/")).toMatch(/user name or password/);
  expect(callbackUrlProblem("https://user@example.com/")).toMatch(/user name or password/);
  expect(callbackUrlProblem("https://example.com/#x")).toMatch(/fragment/);
  expect(callbackUrlProblem("/relative")).toMatch(/absolute/);
});

const fakeDns = (answers: Record<string, string[]>) => async (host: string): Promise<TResolvedAddress[]> => {
  const found = answers[host];
  if (!found) throw new Error("ENOTFOUND");
  return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

test("the host is resolved and every address must be public (a DNS answer mixing in one private address is refused)", async () => {
  const resolve = fakeDns({ "public.test": ["93.184.216.34", "2606:4700::1"], "mixed.test": ["93.184.216.34", "10.0.0.5"], "meta.test": ["169.254.169.254"], "v6loop.test": ["::1"], localhost: ["127.0.0.1"] });
  await expect(checkCallbackUrl("https://public.test/hook", { allowPrivate: false, resolve })).resolves.toMatchObject({ addresses: [{ address: "93.184.216.34" }, { address: "2606:4700::1" }] });
  for (const url of ["https://mixed.test/", "http://meta.test/latest/meta-data", "http://v6loop.test/", "http://127.0.0.1:8080/", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://0x7f000001/", "http://2130706433/", "http://017700000001/", "http://localhost/"]) {
    // (WHATWG URL parsing turns 0x7f000001, 2130706433 and 017700000001 into 127.0.0.1.)
    await expect(checkCallbackUrl(url, { allowPrivate: false, resolve })).rejects.toMatchObject({ key: "webhook_callback_url_refused" });
  }
  await expect(checkCallbackUrl("https://nowhere.test/", { allowPrivate: false, resolve })).rejects.toThrow(/does not resolve/);
  // Allowed by the operator (WEBHOOK_ALLOW_PRIVATE_URLS=1): private addresses pass, the form is still checked.
  await expect(checkCallbackUrl("http://127.0.0.1:9/", { allowPrivate: true, resolve })).resolves.toMatchObject({ addresses: [{ address: "127.0.0.1" }] });
  await expect(checkCallbackUrl("https://a:b@127.0.0.1/", { allowPrivate: true, resolve })).rejects.toMatchObject({ key: "webhook_callback_url_refused" });
});

test("retries: about 5 s, 30 s, 2 min, 10 min, 1 h, then every 3 h, ±20 % jitter, until 24 h after the first attempt", () => {
  const first = new Date(0);
  const at = (attempts: number, random: number, nowMs = 0) => nextRetryDelay(attempts, { firstAttemptAt: first, now: new Date(nowMs), random });
  expect([1, 2, 3, 4, 5, 6, 7].map((n) => at(n, 0.5))).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000, 10_800_000, 10_800_000]);
  expect(at(1, 0)).toBe(4_000);
  expect(at(1, 0.999_999)).toBe(6_000);
  expect(at(7, 0.5, GIVE_UP_AFTER_MS - 10_800_000)).toBe(10_800_000);
  expect(at(7, 0.5, GIVE_UP_AFTER_MS - 10_799_000)).toBeNull();
  // Scaled for tests: the same shape, shorter.
  expect(nextRetryDelay(2, { firstAttemptAt: first, now: first, scale: 0.001, random: 0.5 })).toBe(30);
});
