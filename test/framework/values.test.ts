// Equality of property values (framework/values.ts `deepEqual`), which Diff, refusals and updates share.
import { deepEqual } from "../../provider/src/framework/values";

describe("deepEqual", () => {
  test.each([
    ["the same string in NFD and NFC", "cafe\u0301", "caf\u00e9", true],
    ["strings that differ", "cafe", "caf\u00e9", false],
    ["maps whose values differ only in normal form", { A: "cafe\u0301" }, { A: "caf\u00e9" }, true],
    ["maps whose keys differ only in normal form", { "cle\u0301": "1" }, { "cl\u00e9": "1" }, true],
    ["maps with other keys", { A: "1" }, { B: "1" }, false],
    ["lists in order", ["a", "cafe\u0301"], ["a", "caf\u00e9"], true],
    ["lists out of order", ["a", "b"], ["b", "a"], false],
    ["key order", { a: 1, b: 2 }, { b: 2, a: 1 }, true],
  ])("%s", (_name, a, b, equal) => {
    expect(deepEqual(a, b)).toBe(equal);
  });
});
