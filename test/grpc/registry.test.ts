import { isSecret, secret } from "./engine";
import { describeLifecycle, mutate, removeRecord, useFixture } from "./fixture";

const fixture = useFixture();
const TYPE = "hosting:index:Registry";

describeLifecycle("ghcr", fixture, {
  type: TYPE,
  inputs: { name: "ghcr", host: "ghcr.io", username: "ci", password: secret("s3cret-pass") },
  update: { host: "registry.example.com", password: secret("rotated-pass") },
  replace: { name: "ghcr-2" },
  drift: { apply: mutate("registries", { username: "someone-else" }), property: "username" },
  remove: removeRecord("registries"),
  unknownInput: "password",
  notImported: ["password"],
});

describe("Registry behaviour", () => {
  test(
    "the password is a secret in inputs and outputs, " + "and a changed password diffs against the old input",
    async () => {
      const checked = await fixture.plugin.check(TYPE, "private", {
        name: "private",
        host: "ghcr.io",
        password: "plain-typed",
      });
      expect(isSecret(checked.inputs.password)).toBe(true);
      const created = await fixture.plugin.create(TYPE, "private", checked.inputs);
      expect(isSecret(created.properties.password)).toBe(true);
      const read = await fixture.plugin.read(TYPE, "private", created.id, created.properties, checked.inputs);
      expect(isSecret(read.properties.password)).toBe(true);
      expect(isSecret(read.inputs.password)).toBe(true);
      const rotated = await fixture.plugin.check(
        TYPE,
        "private",
        { name: "private", host: "ghcr.io", password: "new-one" },
        checked.inputs,
      );
      const diff = await fixture.plugin.diff(TYPE, "private", created.id, read.properties, rotated.inputs, read.inputs);
      expect(diff.diffs).toEqual(["password"]);
    },
  );
});
