// A list answer holding two records with one id: a refresh of that app fails naming the id, and
// neither record is taken (nor is the app reported gone); another app in the same answer reads as
// it is. The client's rule is in test/api/duplicateIds.sim.test.ts.
import * as grpc from "@grpc/grpc-js";
import { DIFF_NONE, Engine, type GrpcFailure } from "./engine";
import { CONTAINER, useFixture } from "./fixture";
import { until } from "./until";

const fixture = useFixture();
const IMAGE = "registry.example.com/team/web:1.0.0";
const CONTAINERS = /\/containers$/;

test("a refresh of an app the list holds twice fails naming its id; another app reads as it is", async () => {
  const engine = new Engine(fixture.plugin);
  const a = await engine.created(CONTAINER, "twice", { name: "twice", image: IMAGE });
  const b = await engine.created(CONTAINER, "once", { name: "once", image: IMAGE });
  fixture.sim.control.injectFault({
    kind: "duplicate_record",
    method: "GET",
    path: "/containers$",
    id: a.id,
    times: 2,
  });
  const [twice, once] = await Promise.allSettled([
    engine.refresh(CONTAINER, "twice", a),
    engine.refresh(CONTAINER, "once", b),
  ]);
  expect(twice.status).toBe("rejected");
  const err = (twice as PromiseRejectedResult).reason as GrpcFailure;
  expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
  expect(err.details).toContain(`.id: "${a.id}" is also the id of [`);
  expect(err.details).toContain("records with one id, so none of them is read");
  expect(once).toMatchObject({ status: "fulfilled", value: { gone: false, diff: { changes: DIFF_NONE } } });
  fixture.sim.control.clearFaults();
});

test("a list of 80,000 records with one id (48 MB) is refused naming it, and a Check sent meanwhile is answered", async () => {
  const engine = new Engine(fixture.plugin);
  const app = await engine.created(CONTAINER, "many", { name: "many", image: IMAGE });
  const mark = fixture.mark();
  // The app's record and 80,000 copies of it: reading the ids copied an array at every repeat (quadratic), and a
  // 20 MB list got no answer in 240 s, nor did any call sent meanwhile; this one would outlast the test's time.
  fixture.sim.control.injectFault({
    kind: "duplicate_record",
    method: "GET",
    path: "/containers$",
    id: app.id,
    copies: 80_000,
  });
  const refreshed = engine.refresh(CONTAINER, "many", app).then(
    () => undefined,
    (e: GrpcFailure) => e,
  );
  await until(
    () => fixture.requestsSince(mark).some((r) => r.method === "GET" && CONTAINERS.test(r.path)),
    "the list's GET",
  );
  const { failures } = await fixture.plugin.check(CONTAINER, "other", { name: "other", image: "not an image" });
  expect(failures.map((f) => f.property)).toEqual(["image"]);
  const err = await refreshed;
  expect(err?.code).toBe(grpc.status.FAILED_PRECONDITION);
  expect(err?.details).toContain(`and 79,995 more.id: "${app.id}" is also the id of [`);
  expect(err?.details).toContain("the answer holds 80,001 records with one id, so none of them is read");
  fixture.sim.control.clearFaults();
});
