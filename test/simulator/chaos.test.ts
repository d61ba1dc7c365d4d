// Seeded random faults for the soak (simulator/src/chaos.ts): what a seed draws must not change when
// a fault joins the list, and a joined fault stays off until a run's weights give it a share.
import { request } from "undici";
import { ALICE, randomFaults, type Fault } from "../../simulator/src";
import { RANDOM_FAULTS } from "../../simulator/src/chaos";
import { IMAGE, p, useSimulator } from "./helpers";

const SHAPES: Array<[string, string]> = [
  ["GET", p("/containers")],
  ["POST", p("/containers")],
  ["PATCH", p("/containers/0f0e0d0c-0000-4000-8000-000000000001")],
  ["GET", p("/containers")],
  ["DELETE", "/v1/registries/0f0e0d0c-0000-4000-8000-000000000002"],
];

function label(fault: Fault | undefined): string {
  if (!fault) return "-";
  if (fault.kind === "status") return String(fault.status);
  if (fault.kind === "rate_limit") return fault.retryAfter ? "429+ra" : "429";
  return fault.kind;
}

/** What a source draws for SHAPES in epochs 1 to 12, one line per epoch. */
function draws(source: ReturnType<typeof randomFaults>): string[] {
  const lines = [];
  for (let epoch = 1; epoch <= 12; epoch++) {
    source.epoch = epoch;
    lines.push(SHAPES.map(([method, path]) => label(source.source(method, path))).join(" "));
  }
  return lines;
}

describe("randomFaults", () => {
  // Drawn by chaos.ts before "garbled-after" joined, for seeds 7 and 42 at rate 0.3.
  test.each([
    [
      7,
      [
        "- - - - -",
        "429 - - - -",
        "- reset_after - latency 502",
        "reset_after - - - -",
        "- - - reset_after -",
        "- - - - -",
        "- - reset_before - -",
        "- - - - 429+ra",
        "- 503 - - reset_after",
        "- 504 - - -",
        "latency - 429 - -",
        "- - - - 500",
      ],
    ],
    [
      42,
      [
        "500 - - - -",
        "- 500 - - -",
        "- - - - -",
        "latency - - - -",
        "- - 504 - -",
        "- 429 - - -",
        "- 429+ra - - -",
        "- - 503 - -",
        "- - - - -",
        "429+ra - - - -",
        "- - 429 - -",
        "- - - - latency",
      ],
    ],
  ])("seed %i draws what it drew before the list grew", (seed, expected) => {
    const faults = randomFaults({ seed, rate: 0.3, latencyMs: 1500 });
    expect(draws(faults)).toEqual(expected);
    expect(faults.chosen["garbled-after"]).toBe(0);
  });

  test("garbled-after is a name with weight 0: available, never drawn by default", () => {
    expect(RANDOM_FAULTS["garbled-after"]).toBe(0);
    const faults = randomFaults({ seed: 3, rate: 1, latencyMs: 10 });
    for (let epoch = 1; epoch <= 200; epoch++) {
      faults.epoch = epoch;
      for (const [method, path] of SHAPES) expect(faults.source(method, path)?.kind).not.toBe("respond_after");
    }
    expect(faults.chosen["garbled-after"]).toBe(0);
  });

  test("with a weight it is drawn: a respond_after whose body does not parse", () => {
    const faults = randomFaults({ seed: 3, rate: 1, latencyMs: 10, weights: { "garbled-after": 1 } });
    const garbled: Fault[] = [];
    for (let epoch = 1; epoch <= 50; epoch++) {
      faults.epoch = epoch;
      for (const [method, path] of SHAPES) {
        const fault = faults.source(method, path);
        if (fault?.kind === "respond_after") garbled.push(fault);
      }
    }
    expect(garbled.length).toBe(faults.chosen["garbled-after"]);
    expect(garbled.length).toBeGreaterThan(0);
    for (const fault of garbled) expect(() => JSON.parse(fault.body!)).toThrow();
  });

  describe("over HTTP", () => {
    const h = useSimulator();
    afterEach(() => h.sim.control.setFaultSource(undefined));

    test("a garbled-after create creates, and its answer does not parse", async () => {
      const only = Object.fromEntries(
        Object.keys(RANDOM_FAULTS).map((name) => [name, name === "garbled-after" ? 1 : 0]),
      );
      const faults = randomFaults({ seed: 1, rate: 1, latencyMs: 10, weights: only });
      h.sim.control.setFaultSource(faults.source);
      const res = await request(h.sim.url + p("/containers"), {
        method: "POST",
        headers: { authorization: `Bearer ${ALICE.token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "web", image: IMAGE, http_port: 8080 }),
      });
      expect(res.statusCode).toBe(200);
      await expect(res.body.json()).rejects.toThrow();
      expect(h.sim.control.snapshot().services.map((service) => service.name)).toEqual(["web"]);
      expect(h.sim.control.requests()[0]).toMatchObject({ status: 200, fault: "respond_after", withheldStatus: 201 });
    });
  });
});
