import { ALICE } from "../../simulator/src";
import { Engine, isSecret, secret } from "./engine";
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

describe("an adopted registry keeps its password", () => {
  const engine = () => new Engine(fixture.plugin);
  const writes = (mark: number) => fixture.requestsSince(mark).filter((r) => r.method !== "GET");
  const platform = (id: string) => fixture.sim.control.snapshot().registries.find((r) => r.id === id);

  /** A registry made outside Pulumi, with a password, then `pulumi import`ed: no password is ever read back. */
  async function adopted(name: string) {
    const res = await fetch(`${fixture.sim.url}/v1/registries`, {
      method: "POST",
      headers: { authorization: `Bearer ${ALICE.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name, host: "ghcr.io", username: "ci", password: "set-in-the-portal" }),
    });
    const { id } = (await res.json()) as { id: string };
    const { read, diff } = await engine().importResource(TYPE, name, id, { name, host: "ghcr.io", username: "ci" });
    expect(diff.diffs).toEqual([]);
    expect(read.properties.password).toBeUndefined();
    return { id: read.id, inputs: read.inputs, outputs: read.properties };
  }

  test("an update of another field with no password in the program fails at preview, and nothing is sent", async () => {
    const state = await adopted("adopted");
    const program = { name: "adopted", host: "ghcr.io", username: "ci-bot" };
    const mark = fixture.mark();
    const preview = await engine().preview(TYPE, "adopted", program, state);
    expect(preview.diff?.diffs).toEqual(["username"]);
    expect(preview.error).toMatchObject({
      code: 3,
      details: expect.stringContaining(
        'password is neither in the stack\'s state nor in the program (the API never returns it, so an imported Registry has none), and this update (of username) must send the whole Registry: sending no password would clear the one the platform holds, so nothing was sent. Set it in the program from a secret (`pulumi config set --secret registryPassword <value>`, then password: config.requireSecret("registryPassword")), or, to leave the Registry as it is, ignore the change deliberately with ignoreChanges: ["username"]',
      ),
    });
    // `pulumi up --skip-preview` sends the real update: refused the same way.
    await expect(engine().up(TYPE, "adopted", program, state)).rejects.toMatchObject({ code: 3 });
    expect(writes(mark)).toEqual([]);
    expect(platform(state.id)).toMatchObject({ username: "ci", password: "set-in-the-portal" });
  });

  test("either way out works: the password set in the program, or the change ignored deliberately", async () => {
    const state = await adopted("adopted-2");
    const ignored = await engine().up(
      TYPE,
      "adopted-2",
      { name: "adopted-2", host: "ghcr.io", username: "ci-bot" },
      state,
      {
        ignoreChanges: ["username"],
      },
    );
    expect(ignored.steps).toEqual([]);
    const program = { name: "adopted-2", host: "ghcr.io", username: "ci-bot", password: secret("set-in-pulumi") };
    expect((await engine().preview(TYPE, "adopted-2", program, state)).error).toBeUndefined();
    const up = await engine().up(TYPE, "adopted-2", program, state);
    expect(up.steps).toEqual(["update"]);
    expect(platform(state.id)).toMatchObject({ username: "ci-bot", password: "set-in-pulumi" });
  });
});
