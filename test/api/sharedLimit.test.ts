// Several plugins sharing one account's rate limit (bench row 11), modelled in simulated time: the
// real RateCore in each plugin, the simulator's real TokenBucket as the server (sharedLimitModel.ts).
import { jainIndex, runModel, type ModelOptions } from "./sharedLimitModel";

const LIMIT = 20;
const figures = (o: ModelOptions) => {
  const r = runModel(o);
  return {
    ratio: r.wallMs / ((r.accepted / LIMIT) * 1000),
    share: r.limited / (r.accepted + r.limited),
    jain: jainIndex(r.pluginMs.map((ms) => o.createsEach / ms)),
    finished: r.pluginMs.every(Number.isFinite),
    mostRefused: r.mostRefused,
  };
};

describe("plugins sharing one rate limit (modelled)", () => {
  test("8 plugins × 200 creates at 20 req/s: near the ideal, few 429s, fair shares", () => {
    const f = figures({ plugins: 8, createsEach: 200, limitPerSecond: LIMIT });
    expect(f.finished).toBe(true);
    expect(f.ratio).toBeLessThan(1.15);
    expect(f.share).toBeLessThan(0.08);
    expect(f.jain).toBeGreaterThan(0.95);
    expect(f.mostRefused).toBeLessThanOrEqual(3); // no request near the retry budget (5): nothing fails
  });

  test("the earlier increase (3 req/s per second) probes too hard when shared: one 429 in five", () => {
    const earlier = { increasePerSecond: 3, growthPerSecond: 0 };
    const f = figures({ plugins: 8, createsEach: 200, limitPerSecond: LIMIT, rateControl: earlier });
    expect(f.share).toBeGreaterThan(0.15);
  });

  test("a plugin alone gives little away to the slower increase", () => {
    const f = figures({ plugins: 1, createsEach: 1000, limitPerSecond: LIMIT });
    expect(f.ratio).toBeLessThan(1.05);
    expect(f.share).toBeLessThan(0.02);
  });

  test("a plugin left alone by the others takes up what they leave (3 plugins, one finishing last)", () => {
    const f = figures({ plugins: 3, createsEach: 300, limitPerSecond: LIMIT, latencyMs: 40 });
    expect(f.ratio).toBeLessThan(1.3);
    expect(f.share).toBeLessThan(0.05);
  });
});

describe("jainIndex", () => {
  test("1 when all are equal, 1/n when one takes all", () => {
    expect(jainIndex([2, 2, 2, 2])).toBe(1);
    expect(jainIndex([8, 0, 0, 0])).toBe(0.25);
    expect(jainIndex([1, 3])).toBeCloseTo(0.8, 10);
  });
});
