// server/idle-collect.mjs: once the server is idle after traffic, one full collection, then a trim.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_IDLE_COLLECT_AFTER_MS, parseIdleCollectAfter, startIdleCollector } from "@/server/idle-collect.mjs";

const MODULE = path.join(process.cwd(), "server", "idle-collect.mjs");

describe("when it collects", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function collector(idleMs: number, { fail = false } = {}) {
    vi.useFakeTimers();
    const calls: string[] = [];
    const c = startIdleCollector(idleMs, {
      collect: () => {
        calls.push("collect");
        if (fail) throw new Error("EMFILE");
      },
      after: () => calls.push("after"),
      onError: (e) => calls.push(`error ${(e as Error).message}`),
      now: () => Date.now(),
    })!;
    const request = () => {
      c.requestStarted();
      c.requestEnded();
    };
    return { c, calls, request };
  }

  it("never without traffic", () => {
    const { c, calls } = collector(5_000);
    vi.advanceTimersByTime(60_000);
    expect(calls).toEqual([]);
    c.stop();
  });

  it("once, idleMs after the last request, then the trim; again only after new traffic", () => {
    const { c, calls, request } = collector(5_000);
    request();
    vi.advanceTimersByTime(3_000);
    request();
    vi.advanceTimersByTime(4_000);
    expect(calls).toEqual([]); // 4 s since the last request
    vi.advanceTimersByTime(1_000);
    expect(calls).toEqual(["collect", "after"]);
    vi.advanceTimersByTime(60_000);
    expect(calls).toEqual(["collect", "after"]);
    request();
    vi.advanceTimersByTime(5_000);
    expect(calls).toEqual(["collect", "after", "collect", "after"]);
    c.stop();
  });

  it("by default, not in a pause between bursts (under 30 s): only once the server has gone quiet", () => {
    const { c, calls, request } = collector(parseIdleCollectAfter(undefined));
    for (const pause of [6_000, 12_000, 25_000]) {
      request();
      vi.advanceTimersByTime(pause);
    }
    expect(calls).toEqual([]);
    request();
    vi.advanceTimersByTime(29_000);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(calls).toEqual(["collect", "after"]);
    c.stop();
  });

  it("not while requests keep coming", () => {
    const { c, calls, request } = collector(5_000);
    for (let i = 0; i < 60; i++) {
      request();
      vi.advanceTimersByTime(1_000);
    }
    expect(calls).toEqual([]);
    c.stop();
  });

  it("not while a request is still in flight (a slow upload, a long answer), and idleMs after it ends", () => {
    const { c, calls } = collector(5_000);
    c.requestStarted();
    vi.advanceTimersByTime(60_000);
    expect(calls).toEqual([]);
    c.requestEnded();
    vi.advanceTimersByTime(4_000);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(calls).toEqual(["collect", "after"]);
    c.stop();
  });

  it("a failure goes to onError, and the next idle period tries again", () => {
    const { c, calls, request } = collector(5_000, { fail: true });
    request();
    vi.advanceTimersByTime(5_000);
    expect(calls).toEqual(["collect", "error EMFILE"]);
    request();
    vi.advanceTimersByTime(5_000);
    expect(calls).toEqual(["collect", "error EMFILE", "collect", "error EMFILE"]);
    c.stop();
  });

  it("is off with 0", () => {
    expect(startIdleCollector(0, { collect: () => undefined })).toBeNull();
  });
});

describe("V8's full collection, in a process of its own", () => {
  it("collects once after the idle time that follows traffic, not before, and gives the memory back; no other code gets a gc", () => {
    const probe = `
      import vm from "node:vm";
      import { Worker } from "node:worker_threads";
      import { fullCollection, startIdleCollector } from ${JSON.stringify(MODULE)};
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      const gc = fullCollection();
      let collections = 0;
      const c = startIdleCollector(1000, { collect: () => { collections++; gc(); } });
      await sleep(1500);
      const quiet = collections;
      for (let i = 0; i < 5; i++) { c.requestStarted(); c.requestEnded(); await sleep(100); }
      // What requests leave behind: ~100 MB of objects, one in ten still in use.
      let made = Array.from({ length: 300 }, (_, i) => Array.from({ length: 5000 }, (_, j) => ({ i, j, s: "x" + j })));
      const kept = made.filter((_, i) => i % 10 === 0);
      made = null;
      const busy = collections;
      const rssBefore = process.memoryUsage().rss;
      await sleep(2500);
      const rssAfter = process.memoryUsage().rss;
      c.stop();
      const worker = await new Promise((resolve, reject) => {
        const w = new Worker("require('node:worker_threads').parentPort.postMessage(typeof gc)", { eval: true, execArgv: [] });
        w.once("message", (m) => { resolve(m); w.terminate(); });
        w.once("error", reject);
      });
      console.log(JSON.stringify({
        quiet, busy, collections, kept: kept.length,
        givenBackMb: Math.round((rssBefore - rssAfter) / 2 ** 20),
        gcs: [typeof globalThis.gc, vm.runInNewContext("typeof gc"), vm.runInContext("typeof gc", vm.createContext({})), worker],
      }));
    `;
    const out = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" }).trim().split("\n").at(-1)!);
    expect(out.quiet).toBe(0);
    expect(out.busy).toBe(0);
    expect(out.collections).toBe(1);
    // The emptied pages go back to the system (a regular full collection kept them).
    expect(out.givenBackMb).toBeGreaterThan(40);
    // The app's context, contexts made later (vm) and worker threads: none gets a gc.
    expect(out.gcs).toEqual(["undefined", "undefined", "undefined", "undefined"]);
  });
});

describe("IDLE_COLLECT_AFTER_MS", () => {
  it.each([
    [undefined, DEFAULT_IDLE_COLLECT_AFTER_MS],
    ["", DEFAULT_IDLE_COLLECT_AFTER_MS],
    ["0", 0],
    ["1000", 1_000],
    ["3600000", 3_600_000],
  ])("%j is %d ms", (raw, ms) => {
    expect(parseIdleCollectAfter(raw)).toBe(ms);
  });

  it.each(["soon", "-1", "2.5", "999", "3600001", "5000 ", "1e4"])("%j is refused, naming the variable", (raw) => {
    expect(() => parseIdleCollectAfter(raw)).toThrow(/^IDLE_COLLECT_AFTER_MS: expected/);
  });
});
