// The token and other secrets never reach the plugin's output, even at maximum verbosity.
import { ALICE } from "../../simulator/src";
import { Plugin, secret } from "./engine";
import { useFixture } from "./fixture";

const fixture = useFixture({ pluginArgs: ["--logtostderr", "-v=9"] });

test(
  "the token, a registry password and connection instructions never appear in stdout, " + "stderr or the engine log",
  async () => {
    const plugin = fixture.plugin;
    const password = "registry-password-do-not-print";
    const reg = await plugin.check("hosting:index:Registry", "r", {
      name: "r",
      host: "ghcr.io",
      password: secret(password),
    });
    const created = await plugin.create("hosting:index:Registry", "r", reg.inputs);
    await plugin.read("hosting:index:Registry", "r", created.id, created.properties, reg.inputs);
    const db = await plugin.check("hosting:index:Postgres", "db", { name: "db" });
    const made = await plugin.create("hosting:index:Postgres", "db", db.inputs);
    const instructions = (made.properties.connection as any).instructions.value as string;
    // Errors too: a 401 from a wrong token, and a 409.
    const wrong = await Plugin.start({ args: ["--logtostderr", "-v=9"] });
    await wrong.configure({ baseUrl: fixture.sim.url, token: "wrong-token-also-secret", projectId: ALICE.projects[0] });
    const failed = await wrong
      .create("hosting:index:Volume", "v", { name: "v", sizeGb: 1, projectId: ALICE.projects[0] })
      .catch((e) => e);
    expect(failed.details).toMatch(/UNAUTHORIZED/);
    const dup = await plugin.create("hosting:index:Registry", "r", reg.inputs).catch((e) => e);
    expect(dup.details).toMatch(/NAME_TAKEN/);
    await new Promise((r) => setTimeout(r, 100));
    await wrong.stop();

    const everything = [
      plugin.stdout,
      plugin.stderr,
      wrong.stdout,
      wrong.stderr,
      failed.details,
      dup.details,
      ...plugin.engine.messages.map((m) => m.message),
      ...wrong.engine.messages.map((m) => m.message),
    ].join("\n");
    expect(plugin.stderr.length).toBeGreaterThan(0); // verbose logging really happened
    for (const secretValue of [ALICE.token, "wrong-token-also-secret", password, instructions]) {
      expect(everything.includes(secretValue)).toBe(false);
    }
    expect(plugin.stdout.trim()).toMatch(/^\d+$/); // the port, and nothing else
  },
);
