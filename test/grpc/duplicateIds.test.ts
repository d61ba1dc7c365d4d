// A list answer holding two records with one id: a refresh of that app fails naming the id, and
// neither record is taken (nor is the app reported gone); another app in the same answer reads as
// it is. The client's rule is in test/api/duplicateIds.sim.test.ts.
import * as grpc from "@grpc/grpc-js";
import { DIFF_NONE, Engine, type GrpcFailure } from "./engine";
import { CONTAINER, useFixture } from "./fixture";

const fixture = useFixture();
const IMAGE = "registry.example.com/team/web:1.0.0";

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
