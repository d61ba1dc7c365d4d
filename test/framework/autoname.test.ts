import { autoname, SUFFIX_LENGTH, suffixOf } from "../../provider/src/framework/autoname";
import { checkInputs } from "../../provider/src/framework/check";
import { DNS_LABEL_NAMES, fitDnsLabel } from "../../provider/src/framework/validators";
import { spec } from "./cases";

const seed = (byte: number) => new Uint8Array(32).fill(byte);

describe("fitDnsLabel: any text made the beginning of a DNS label", () => {
  test.each([
    ["web", 63, "web"],
    ["Web_API", 63, "web-api"],
    ["my--app..v2", 63, "my-app-v2"],
    ["123abc", 63, "abc"],
    ["-db-", 63, "db"],
    ["café", 63, "cafe"],
    ["a".repeat(70), 55, "a".repeat(55)],
    [`${"a".repeat(54)}-b`, 55, "a".repeat(54)],
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
