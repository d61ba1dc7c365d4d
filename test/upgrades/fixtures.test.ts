// Which schema version `make record-state` records: a new one for a new shape, never over a
// fixture of another shape, and the newest again only when asked.
import { versionToRecord } from "./fixtures";

const shape = { "hosting:index:Tag": { name: "input, string" } };
const grown = { "hosting:index:Tag": { name: "input, string", color: "input, string" } };
const newest = { version: 2, shape };
const color = "hosting:index:Tag.color: (none) → input, string";

describe("versionToRecord", () => {
  test.each([
    ["the first fixture", undefined, shape, false, { version: 1, changes: [] }],
    ["a changed shape: the next version, saying what changed", newest, grown, false, { version: 3, changes: [color] }],
    ["a changed shape with --replace: still the next version", newest, grown, true, { version: 3, changes: [color] }],
    ["the same shape with --replace: the newest again", newest, shape, true, { version: 2, changes: [] }],
  ])("%s", (_, fixture, current, replace, expected) => {
    expect(versionToRecord(fixture, current, replace)).toEqual(expected);
  });

  test("the same shape is refused: its fixture is what a release wrote", () => {
    expect(() => versionToRecord(newest, shape)).toThrow(/^the state shape is schema version 2's, which has its/);
  });
});
