// A taken name, whatever code the API gives it (the document does not say which): a create that
// meets one says what to do, the replacement that keeps a name above all; a link that is taken
// is the identical link, and is adopted.
import { Engine, type GrpcFailure } from "./engine";
import { CONTAINER, LINK, POSTGRES, useFixture } from "./fixture";

const fixture = useFixture();
const engine = () => new Engine(fixture.plugin);
const IMAGE = "registry.example.com/team/web:1.0.0";
const ADVICE = /set the resource option `deleteBeforeReplace: true`, and the old one is deleted first/;

test.each(["NAME_TAKEN", "CONFLICT"])(
  "a create refused with 409 %s says to set deleteBeforeReplace, and why",
  async (code) => {
    if (code === "CONFLICT")
      fixture.sim.control.injectFault({ kind: "status", status: 409, method: "POST", path: "/containers$" });
    else await engine().created(CONTAINER, "taken", { name: "taken", image: IMAGE });
    const failure = (await engine()
      .create(CONTAINER, "taken-again", { name: "taken", image: IMAGE })
      .catch((e) => e)) as GrpcFailure;
    expect(failure.details).toMatch(
      new RegExp(`^${code}: .*\\(HTTP 409, request [\\w-]+\\): another resource in this scope has this name`),
    );
    expect(failure.details).toMatch(/engine creates the new one before it deletes the old/);
    expect(failure.details).toMatch(ADVICE);
  },
);

test("`pulumi up --replace` of a resource that keeps its name meets the taken name and says what to do", async () => {
  const db = await engine().created(POSTGRES, "keeps", { name: "keeps" });
  const replaced = (await engine()
    .forceReplace(POSTGRES, "keeps", { name: "keeps" }, db)
    .catch((e) => e)) as GrpcFailure;
  expect(replaced.details).toMatch(ADVICE);
  const deletedFirst = await engine().forceReplace(POSTGRES, "keeps", { name: "keeps" }, db, {
    deleteBeforeReplace: true,
  });
  expect(deletedFirst.steps).toEqual(["delete", "create"]);
  expect(deletedFirst.error).toBeUndefined();
});

test("a link the API says is taken, whatever its code, is the identical link: it is adopted", async () => {
  const app = await engine().created(CONTAINER, "consumer", { name: "consumer", image: IMAGE });
  const db = await engine().created(POSTGRES, "provider", { name: "provider" });
  const first = await engine().created(LINK, "link", { consumerServiceId: app.id, providerServiceId: db.id });
  fixture.sim.control.injectFault({ kind: "status", status: 409, method: "POST", path: "/service-links$" });
  const again = await engine().created(LINK, "link-again", { consumerServiceId: app.id, providerServiceId: db.id });
  expect(again.id).toBe(first.id);
});
