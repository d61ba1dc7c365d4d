import { median, medianRun, trendGrowth } from "../../bench/stats";

const marks = (ys: number[]) => ys.map((y, i) => ({ x: 2_000 + i * 1_000, y }));

describe("trendGrowth", () => {
  test("a steady growth shows in full", () => {
    expect(trendGrowth(marks([100, 101, 102, 103, 104, 105, 106, 107, 108]))).toBeCloseTo(8);
  });

  test("flat readings grow by nothing, whatever their level", () => {
    expect(trendGrowth(marks([120, 120, 120]))).toBeCloseTo(0);
  });

  test("one high last reading counts for much less than the difference of the end readings", () => {
    const ys = [115, 113, 116, 114, 115, 113, 116, 114, 125];
    expect(ys.at(-1)! - ys[0]).toBe(10);
    expect(trendGrowth(marks(ys))).toBeLessThan(5);
  });

  test("noise around a real leak does not hide it", () => {
    const leak = [100, 103, 101, 105, 104, 108, 106, 110, 109];
    expect(trendGrowth(marks(leak))).toBeGreaterThan(8);
  });

  test("needs two points, at two different x", () => {
    expect(() => trendGrowth(marks([1]))).toThrow(/two points/);
    expect(() =>
      trendGrowth([
        { x: 1, y: 1 },
        { x: 1, y: 2 },
      ]),
    ).toThrow(/two different x/);
  });
});

describe("median", () => {
  test("the middle value of an odd count, the mean of the two middle ones of an even count, whatever the order", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe("medianRun", () => {
  test("the whole run of the middle wall time, its other figures with it; the lower middle of an even count", () => {
    const runs = [
      { wallMs: 900, lists: 2 },
      { wallMs: 700, lists: 1 },
      { wallMs: 800, lists: 3 },
    ];
    expect(medianRun(runs)).toEqual({ wallMs: 800, lists: 3 });
    expect(medianRun([...runs, { wallMs: 1000, lists: 4 }])).toEqual({ wallMs: 800, lists: 3 });
    expect(() => medianRun([])).toThrow(/no runs/);
  });
});
