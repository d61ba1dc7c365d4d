// Resource references: the plugin answers Handshake with accept_resources = true (provider.proto: a provider that
// implements Handshake must), so the engine sends a resource where a program passed one, as the special object
// `{4dabf…: 5cf8f…, urn, id, packageVersion}`. Wherever an id is expected the plugin takes the reference's id, keeps
// an id not known yet unknown, and never writes a reference into state or an HTTP body.
import { DIFF_NONE, Engine, UNKNOWN } from "./engine";
import { CONTAINER, POSTGRES, useFixture, VOLUME } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 50 });
const engine = () => new Engine(fixture.plugin);
const ATTACHMENT = "hosting:index:VolumeAttachment";
const LINK = "hosting:index:ServiceLink";
const IMAGE = "registry.example.com/team/web:1.0.0";
const SIG = "4dabf18193072939515e22adb298388d";
const REFERENCE = "5cf8f73096256a8f31e491e813e4eb8e";

/** What the engine sends for a resource a program passed (rpc.go MarshalPropertyValue, KeepResources). */
const reference = (type: string, name: string, id?: string) => ({
  [SIG]: REFERENCE,
  urn: `urn:pulumi:test::hosting-tests::${type}::${name}`,
  ...(id === undefined ? {} : { id }),
  packageVersion: "1.0.0",
});

/** Nothing the plugin answered holds a reference or the URN of one. */
const holdsNoReference = (...answers: unknown[]) => {
  for (const answer of answers) {
    expect(JSON.stringify(answer)).not.toContain(REFERENCE);
    expect(JSON.stringify(answer)).not.toContain("urn:pulumi:");
  }
};

test("the plugin says it accepts resource references (Configure answers the same: config.test.ts)", () => {
  expect(fixture.plugin.handshook).toMatchObject({ acceptResources: true });
});

test("a Container whose links hold a reference to a database links to it, previews unknown, and records its id", async () => {
  const db = await engine().created(POSTGRES, "orders", { name: "orders" });
  // At preview, before the database exists, its id is not known: the engine sends it empty.
  const previewed = await fixture.plugin.check(CONTAINER, "shop", {
    name: "shop",
    image: IMAGE,
    links: [reference(POSTGRES, "orders", "")],
  });
  expect(previewed.failures).toEqual([]);
  expect(previewed.inputs.links).toEqual([UNKNOWN]);

  const program = { name: "shop", image: IMAGE, links: [reference(POSTGRES, "orders", db.id)] };
  const { inputs, failures } = await fixture.plugin.check(CONTAINER, "shop", program);
  expect(failures).toEqual([]);
  expect(inputs.links).toEqual([db.id]);
  const app = await engine().created(CONTAINER, "shop", program);
  holdsNoReference(inputs, app.inputs, app.outputs);
  expect(app.outputs.links).toEqual([db.id]);
  const links = fixture.sim.control.snapshot().links.filter((l) => l.consumer_service_id === app.id);
  expect(links.map((l) => l.provider_service_id)).toEqual([db.id]);
  // The next run sends the reference again: no change.
  const again = await engine().preview(CONTAINER, "shop", program, app);
  expect(again.diff?.changes).toBe(DIFF_NONE);
});

test("a VolumeAttachment whose ids are references attaches that volume to that app", async () => {
  const app = await engine().created(CONTAINER, "host", { name: "host", image: IMAGE });
  const volume = await engine().created(VOLUME, "data", { name: "data", sizeGb: 1 });
  const program = {
    volumeId: reference(VOLUME, "data", volume.id),
    containerId: reference(CONTAINER, "host", app.id),
    mountPath: "/data",
  };
  const attached = await engine().created(ATTACHMENT, "data-on-host", program);
  expect(attached.id).toBe(`${volume.id}:${app.id}`);
  expect(attached.inputs).toMatchObject({ volumeId: volume.id, containerId: app.id });
  holdsNoReference(attached.inputs, attached.outputs);
  expect(fixture.sim.control.snapshot().attachments).toEqual([
    expect.objectContaining({ volume_id: volume.id, container_id: app.id, mount_path: "/data" }),
  ]);
  expect((await engine().preview(ATTACHMENT, "data-on-host", program, attached)).diff?.changes).toBe(DIFF_NONE);
});

test("a reference to a component, which has no id, is refused where an id is expected, naming the property", async () => {
  const { failures } = await fixture.plugin.check(LINK, "l", {
    consumerServiceId: reference("my:index:Shop", "shop"),
    providerServiceId: "00000000-0000-4000-8000-000000000001",
  });
  expect(failures).toEqual([
    {
      property: "consumerServiceId",
      reason: expect.stringContaining(
        'consumerServiceId "urn:pulumi:test::hosting-tests::my:index:Shop::shop" is not an id; use the UUID the API assigned',
      ),
    },
  ]);
});
