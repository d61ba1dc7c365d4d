import { autoname, SUFFIX_LENGTH, suffixOf } from "../../provider/src/framework/autoname";
import { checkInputs } from "../../provider/src/framework/check";
import { createHash } from "node:crypto";
import { DNS_LABEL_NAMES, MIDDLE_DIGEST_LENGTH, fitDnsLabel } from "../../provider/src/framework/validators";
import { spec } from "./cases";

const seed = (byte: number) => new Uint8Array(32).fill(byte);
const digestOf = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, MIDDLE_DIGEST_LENGTH);
const valid = (name: string) => DNS_LABEL_NAMES.validate(name, "name") === undefined;

describe("fitDnsLabel: any text made a DNS label", () => {
  test.each([
    ["web", 63, "web"],
    ["Web_API", 63, "web-api"],
    ["my--app..v2", 63, "my-app-v2"],
    ["123abc", 63, "abc"],
    ["-db-", 63, "db"],
    ["café", 63, "cafe"],
    ["a".repeat(55), 55, "a".repeat(55)],
    [`${"a".repeat(54)}-`, 55, "a".repeat(54)],
    // Too long: the start and the tail, and a digest of the whole for the middle.
    ["a".repeat(70), 55, `${"a".repeat(24)}-${digestOf("a".repeat(70))}-${"a".repeat(23)}`],
    [`${"a".repeat(54)}-b`, 55, `${"a".repeat(24)}-${digestOf(`${"a".repeat(54)}-b`)}-${"a".repeat(21)}-b`],
  ])("%s (at most %i) → %s", (text, max, fitted) => {
    expect(fitDnsLabel(text, max)).toBe(fitted);
    expect(DNS_LABEL_NAMES.validate(fitted, "name")).toBeUndefined();
  });

  test.each(["123", "日本", "---", ""])("%j has no letter to start a name with", (text) => {
    expect(fitDnsLabel(text, 63)).toBeUndefined();
  });
});

describe("suffixOf: the random part, drawn from the engine's seed", () => {
  test("the same seed gives the same suffix; another seed another", () => {
    expect(suffixOf(seed(1))).toBe(suffixOf(seed(1)));
    expect(suffixOf(seed(1))).not.toBe(suffixOf(seed(2)));
    expect(suffixOf(seed(1))).toMatch(new RegExp(`^[0-9a-f]{${SUFFIX_LENGTH}}$`));
  });

  test("an empty seed (an engine that sends none) still gives a valid suffix", () => {
    expect(suffixOf(new Uint8Array())).toMatch(/^[0-9a-f]{7}$/);
  });
});

describe("autoname: the name a resource gets when the program sets none", () => {
  const request = { logicalName: "db", randomSeed: seed(7) };

  test("the logical name and a suffix from the seed", () => {
    expect(autoname("name", DNS_LABEL_NAMES, request)).toEqual({ name: `db-${suffixOf(seed(7))}` });
  });

  test("a long logical name is cut so that the whole name fits 63 characters", () => {
    const named = autoname("name", DNS_LABEL_NAMES, { ...request, logicalName: "x".repeat(100) });
    expect("name" in named && named.name.length).toBe(63);
  });

  // A pattern puts the stack and the random part at the tail: a name cut at its end lost them, so the
  // stacks of two pull requests proposed one name, and the second met 409.
  describe("a proposal over 63 characters keeps its start and its tail", () => {
    const long = "customer-facing-checkout-service-with-a-long-descriptive-logical-name";
    const named = (proposedName: string, mode: "propose" | "enforce" = "propose") =>
      autoname("name", DNS_LABEL_NAMES, { ...request, autonaming: { mode, proposedName } });
    const nameOf = (naming: ReturnType<typeof autoname>) => ("name" in naming ? naming.name : naming.failure);

    test.each([
      ["the pattern name-stack", (stack: string) => `${long}-${stack}`, "pr-12", "pr-13"],
      ["the pattern stack-name", (stack: string) => `${stack}-${long}`, "pr-12", "pr-13"],
      ["the pattern name-stack-hex(7)", (hex: string) => `${long}-pr-12-${hex}`, "4f2a9c1", "4f2a9c2"],
      ["the pattern project-name-stack", (stack: string) => `shop-${long}-${long}-${stack}`, "staging", "production"],
    ] as const)("%s: two stacks, two distinct valid names", (_pattern, proposal, first, second) => {
      const [a, b] = [nameOf(named(proposal(first))), nameOf(named(proposal(second)))];
      for (const [name, part] of [
        [a, first],
        [b, second],
      ]) {
        expect(valid(name)).toBe(true);
        expect(name.length).toBeLessThanOrEqual(63);
        expect(name.startsWith(proposal(part).slice(0, 20))).toBe(true);
        expect(name.endsWith(proposal(part).slice(-20))).toBe(true);
      }
      expect(a).not.toBe(b);
    });

    test("the same proposal gives the same name every time (a preview and its up agree)", () => {
      expect(named(`${long}-pr-12`)).toEqual(named(`${long}-pr-12`));
    });

    test("the default name of a long logical name keeps its random part", () => {
      const one = autoname("name", DNS_LABEL_NAMES, { logicalName: long, randomSeed: seed(1) });
      const two = autoname("name", DNS_LABEL_NAMES, { logicalName: long, randomSeed: seed(2) });
      expect(nameOf(one)).toMatch(new RegExp(`^customer-facing-.*-${suffixOf(seed(1))}$`));
      expect(nameOf(two)).toMatch(new RegExp(`-${suffixOf(seed(2))}$`));
      expect(valid(nameOf(one)) && nameOf(one).length === 63).toBe(true);
    });

    test.each([
      [
        "enforce: a proposal over 63 characters is used exactly or not at all",
        `${long}-pr-12`,
        "enforce",
        /characters long; use at most 63.*change the pattern, or set name in the program/,
      ],
      [
        "propose: a proposal with no letter to start a name",
        "2026-11-27-42",
        "propose",
        /from which no valid name can be made \(name "2026-11-27-42" is not valid: use lowercase letters/,
      ],
    ] as const)("%s: Check fails, naming the rule", (_title, proposal, mode, reason) => {
      const naming = named(proposal, mode);
      expect(naming).toEqual({ failure: expect.stringMatching(reason) });
    });
  });

  test("a logical name that cannot become a name says to set name", () => {
    const named = autoname("name", DNS_LABEL_NAMES, { ...request, logicalName: "123" });
    expect("failure" in named && named.failure).toBe(
      'name is required here: no valid name can be made from the resource\'s name "123" (name "123" is not valid: use lowercase letters, digits and dashes, starting with a letter and not ending with a dash, e.g. "web-api"); set name in the program',
    );
  });

  test.each([
    ["propose: the proposal as it is", "propose", "web-pr-12", { name: "web-pr-12" }],
    ["propose: fitted to the API's rule", "propose", "Web_PR_12", { name: "web-pr-12" }],
    ["enforce: exactly", "enforce", "web-pr-12", { name: "web-pr-12" }],
  ] as const)("%s", (_title, mode, proposedName, expected) => {
    expect(autoname("name", DNS_LABEL_NAMES, { ...request, autonaming: { mode, proposedName } })).toEqual(expected);
  });

  test("enforce: a proposal that breaks the rule fails, naming the rule", () => {
    const named = autoname("name", DNS_LABEL_NAMES, {
      ...request,
      autonaming: { mode: "enforce", proposedName: "Web_PR_12" },
    });
    expect(named).toEqual({
      failure: expect.stringContaining(
        'enforces the name "Web_PR_12", which breaks the API\'s name rule (name "Web_PR_12" is not valid: use lowercase letters, digits and dashes',
      ),
    });
  });

  test("propose: a proposal nothing can be made of fails", () => {
    const named = autoname("name", DNS_LABEL_NAMES, {
      ...request,
      autonaming: { mode: "propose", proposedName: "42" },
    });
    expect("failure" in named && named.failure).toContain(
      'proposes the name "42", from which no valid name can be made',
    );
  });

  test("disable: a name must be set", () => {
    expect(
      autoname("name", DNS_LABEL_NAMES, { ...request, autonaming: { mode: "disable", proposedName: "" } }),
    ).toEqual({
      failure:
        "name is required: the project's pulumi:autonaming configuration disables autonaming for this resource, so set name in the program",
    });
  });
});

describe("checkInputs with naming: an input flagged autoname", () => {
  const named = {
    ...spec,
    fields: spec.fields.map((f) =>
      f.name === "name" ? { ...f, required: false, validate: DNS_LABEL_NAMES.validate, autoname: DNS_LABEL_NAMES } : f,
    ),
  };
  const check = (news: Record<string, unknown>, olds: Record<string, unknown> = {}, extra = {}) =>
    checkInputs(named, news as any, {
      packageName: "hosting",
      config: { projectId: "p1" },
      naming: { logicalName: "web", randomSeed: seed(3), olds: olds as any, ...extra },
    });

  test("left out of a new resource: named from the logical name and the seed", () => {
    const checked = check({});
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.name).toBe(`web-${suffixOf(seed(3))}`);
    expect(checked.autonamed).toEqual(["name"]);
  });

  test("left out on an update: the name it has, whatever the seed", () => {
    const checked = check({}, { name: "web-1234567" });
    expect(checked.inputs.name).toBe("web-1234567");
    expect(checked.autonamed).toEqual(["name"]);
  });

  test("set by the program: used, and not autonamed, even where the resource had another", () => {
    const checked = check({ name: "api" }, { name: "web-1234567" });
    expect(checked.inputs.name).toBe("api");
    expect(checked.autonamed).toEqual([]);
  });

  test("a set name is still checked against the rule", () => {
    expect(check({ name: "Bad_Name" }).failures).toEqual([
      { property: "name", reason: expect.stringContaining('name "Bad_Name" is not valid') },
    ]);
  });

  test("the engine's autonaming options are honoured", () => {
    expect(check({}, {}, { autonaming: { mode: "enforce", proposedName: "web-dev" } }).inputs.name).toBe("web-dev");
    expect(check({}, {}, { autonaming: { mode: "disable", proposedName: "" } }).failures).toEqual([
      { property: "name", reason: expect.stringContaining("disables autonaming") },
    ]);
  });

  test("without naming (a Create's re-check of what Check passed) a missing name is required", () => {
    const checked = checkInputs(named, {} as any, { packageName: "hosting", config: { projectId: "p1" } });
    expect(checked.failures).toEqual([{ property: "name", reason: "name is required: the name" }]);
  });
});
