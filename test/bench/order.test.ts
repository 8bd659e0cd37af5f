import { describe, expect, it } from "vitest";
import { sampleOrder, sampleSequence } from "@/bench/order";

// The benchmark measures a scenario's servers one after another, sample after sample
// (bench/run.ts `measure`, through `sampleSequence`). How long a server idled before a sample
// changes what the sample reads, so every server must idle equally long before each of its
// samples, and the app must be measured right next to what its throughput is compared with.
function idleBefore(servers: string[], samples: number): Map<string, number[]> {
  const sequence = sampleSequence(servers, samples).map((m) => m.server);
  const idle = new Map<string, number[]>(servers.map((s) => [s, []]));
  sequence.forEach((server, at) => {
    const previous = at === 0 ? -1 : sequence.lastIndexOf(server, at - 1);
    if (previous !== -1) idle.get(server)!.push(at - previous - 1);
  });
  return idle;
}

describe("bench sample order", () => {
  it("measures the app right after the reference, then the floor, in every sample", () => {
    expect(sampleOrder(["app", "reference", "floor"])).toEqual(["reference", "app", "floor"]);
    expect(sampleOrder(["app", "app-rate-limited"])).toEqual(["app-rate-limited", "app"]);
    expect(sampleOrder(["app"])).toEqual(["app"]);
    const sequence = sampleSequence(["app", "reference", "floor"], 3);
    expect(sequence.map((m) => `${m.sample}:${m.server}`)).toEqual(["0:reference", "0:app", "0:floor", "1:reference", "1:app", "1:floor", "2:reference", "2:app", "2:floor"]);
  });

  it("lets every server idle equally long between two of its samples", () => {
    for (const servers of [["app", "reference", "floor"], ["app", "app-rate-limited"]]) {
      const idle = idleBefore(servers, 4);
      for (const gaps of idle.values()) expect(gaps).toEqual(Array(3).fill(servers.length - 1));
    }
  });
});
