// The two switches of an app's first day (issue 28): apps that cannot start until a link injects
// their variables (appsRequireEnv), and whether a new link restarts its consumer (linkRestartsConsumer).
import { createContainer, eventually, findService, p, useSimulator, type Client } from "./helpers";

const statusOf = async (client: Client, id: string) => (await findService(client, id))?.status;
const logOf = async (client: Client, id: string) => (await client.get(p(`/containers/${id}/logs`))).text;

async function database(client: Client) {
  return (await client.post(p("/postgres"), { name: "db" })).body.service as Record<string, any>;
}
const link = (client: Client, consumer: string, provider: string) =>
  client.post(p("/service-links"), { consumer_service_id: consumer, provider_service_id: provider });

describe("appsRequireEnv: an app that needs DATABASE_URL", () => {
  const h = useSimulator({ appsRequireEnv: ["DATABASE_URL"] });

  test("fails a start without the variable, and its log names it", async () => {
    const web = await createContainer(h.alice);
    expect(
      await eventually(
        () => statusOf(h.alice, web.id),
        (s) => s !== "provisioning",
      ),
    ).toBe("failed");
    expect(await logOf(h.alice, web.id)).toMatch(/Error: environment variable DATABASE_URL is not set/);
  });

  test("starts when its own env sets it", async () => {
    const web = await createContainer(h.alice, { env: { DATABASE_URL: "postgres://elsewhere" } });
    expect(
      await eventually(
        () => statusOf(h.alice, web.id),
        (s) => s !== "provisioning",
      ),
    ).toBe("running");
  });

  test("a link alone does not restart it (the switch below is off); the restart after it starts the app", async () => {
    const web = await createContainer(h.alice);
    const db = await database(h.alice);
    expect((await link(h.alice, web.id, db.id)).status).toBe(201);
    expect(await statusOf(h.alice, web.id)).toBe("failed");
    expect((await h.alice.post(p(`/containers/${web.id}/restart`))).status).toBe(204);
    expect(
      await eventually(
        () => statusOf(h.alice, web.id),
        (s) => s !== "provisioning",
      ),
    ).toBe("running");
  });

  test("off (the default []): an app starts without any variable", async () => {
    h.sim.control.setSwitches({ appsRequireEnv: [] });
    const web = await createContainer(h.alice);
    expect(
      await eventually(
        () => statusOf(h.alice, web.id),
        (s) => s !== "provisioning",
      ),
    ).toBe("running");
  });
});

describe("linkRestartsConsumer", () => {
  const h = useSimulator({ appsRequireEnv: ["DATABASE_URL"], linkRestartsConsumer: true });

  test("on: a new link restarts its failed consumer, which now starts", async () => {
    const web = await createContainer(h.alice);
    const db = await database(h.alice);
    await eventually(
      () => statusOf(h.alice, web.id),
      (s) => s === "failed",
    );
    h.sim.control.setSwitches({ serviceStartMs: 300 });
    expect((await link(h.alice, web.id, db.id)).status).toBe(201);
    expect(await statusOf(h.alice, web.id)).toBe("provisioning");
    expect(await logOf(h.alice, web.id)).toMatch(/restarted: linked to db/);
    expect(
      await eventually(
        () => statusOf(h.alice, web.id),
        (s) => s !== "provisioning",
      ),
    ).toBe("running");
  });

  test("on: a stopped consumer stays stopped", async () => {
    const web = await createContainer(h.alice, { env: { DATABASE_URL: "x" } });
    const db = await database(h.alice);
    await h.alice.post(p(`/containers/${web.id}/stop`));
    await link(h.alice, web.id, db.id);
    expect(await statusOf(h.alice, web.id)).toBe("stopped");
  });

  test("off: a new link leaves the consumer as it was", async () => {
    h.sim.control.setSwitches({ linkRestartsConsumer: false });
    const web = await createContainer(h.alice);
    const db = await database(h.alice);
    await eventually(
      () => statusOf(h.alice, web.id),
      (s) => s === "failed",
    );
    await link(h.alice, web.id, db.id);
    expect(await statusOf(h.alice, web.id)).toBe("failed");
    expect(await logOf(h.alice, web.id)).not.toMatch(/restarted: linked/);
  });
});
