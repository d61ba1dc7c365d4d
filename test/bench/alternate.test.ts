// Every ratio row measures its sides round by round (bench/stats.ts `alternate`): the order is what
// makes a ratio of the plugin and its baseline fair on a machine whose speed moves.
import { alternate, roundOrder, roundRatios, spread } from "../../bench/stats";

/** Sides that record the order they were measured in, each answering its name and its run's number. */
function recorder(names: string[]) {
  const ran: string[] = [];
  const sides = Object.fromEntries(
    names.map((name) => [
      name,
      async () => {
        ran.push(name);
        return `${name}${ran.length}`;
      },
    ]),
  );
  return { ran, sides };
}

describe("alternate", () => {
  test("measures the plugin and its baseline round by round, never a phase of one then the other", async () => {
    const { ran, sides } = recorder(["plugin", "floor"]);
    await alternate(4, sides);
    expect(ran).toEqual(["plugin", "floor", "floor", "plugin", "plugin", "floor", "floor", "plugin"]);
  });

  test("no side runs first in every round", async () => {
    const { ran, sides } = recorder(["a", "b", "c"]);
    await alternate(2, sides);
    expect(ran).toEqual(["a", "b", "c", "c", "b", "a"]);
  });

  test("keeps each side's figures by round, without the warm-up rounds", async () => {
    const { ran, sides } = recorder(["plugin", "floor"]);
    const figures = await alternate(2, sides, { warmUp: 1 });
    expect(ran).toHaveLength(6);
    expect(figures).toEqual({ plugin: ["plugin4", "plugin5"], floor: ["floor3", "floor6"] });
  });

  test("a round's order alternates whatever the sides", () => {
    expect(roundOrder(["x", "y"], 0)).toEqual(["x", "y"]);
    expect(roundOrder(["x", "y"], 1)).toEqual(["y", "x"]);
    expect(roundOrder(["x", "y"], 2)).toEqual(["x", "y"]);
  });
});

describe("roundRatios", () => {
  test("the ratio of each round to its own baseline, as a median and a range", () => {
    expect(roundRatios([12, 30, 22], [10, 20, 20])).toEqual({ median: 1.2, min: 1.1, max: 1.5, rounds: 3 });
  });

  test("refuses rounds that do not pair up", () => {
    expect(() => roundRatios([1, 2], [1])).toThrow(/2 rounds measured against 1/);
  });

  test("spread needs a figure", () => {
    expect(() => spread([])).toThrow(/no values/);
  });
});
