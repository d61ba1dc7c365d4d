// Shared helpers for the API client's integration tests: a simulator over real HTTP.
import { ALICE, BOB, startSimulator, type Simulator, type SimulatorOptions } from "../../simulator/src";
import { HostingClient, type CallOptions, type HostingClientOptions } from "../../provider/src/api/client";
import { services } from "../../provider/src/resources/services";
import { closeSharedDispatcher } from "../../provider/src/api/http";

export const ALICE_PROJECT = ALICE.projects[0];
export const BOB_PROJECT = BOB.projects[0];
export const IMAGE = "registry.sim.hosting.test/acme/web:1.0.0";
export const IMAGE2 = "registry.sim.hosting.test/acme/web:1.0.1";

export interface ApiHarness {
  sim: Simulator;
  /** A client for alice (fast retries; collects log lines in `lines`). */
  alice(opts?: Partial<HostingClientOptions>): HostingClient;
  bob(opts?: Partial<HostingClientOptions>): HostingClient;
  lines: string[];
  /** Requests the simulator saw, filtered by method and a path regex. */
  seen(method: string, path: RegExp): number;
}

/** Start one simulator per test file; reset it before each test. Call inside a describe block. */
export function useApiSimulator(options: SimulatorOptions = {}): ApiHarness {
  const h = { lines: [] as string[] } as unknown as ApiHarness;
  beforeAll(async () => {
    h.sim = await startSimulator({ port: 0, ...options });
  });
  afterAll(async () => {
    await h.sim?.close();
    await closeSharedDispatcher();
  });
  beforeEach(() => {
    h.sim.control.reset();
    h.lines.length = 0;
  });
  const make =
    (token: string) =>
    (opts: Partial<HostingClientOptions> = {}) =>
      new HostingClient({
        baseUrl: h.sim.url,
        token,
        retryBaseDelayMs: 20,
        retryMaxDelayMs: 100,
        logger: (line) => h.lines.push(line),
        ...opts,
      });
  h.alice = make(ALICE.token);
  h.bob = make(BOB.token);
  h.seen = (method, path) => h.sim.control.requests().filter((r) => r.method === method && path.test(r.path)).length;
  return h;
}

/** A service by its id, from the list (the API has no GET of one service). */
export const serviceById = async (c: HostingClient, project: string, id: string, opts?: CallOptions) =>
  (await c.of(services).list(project, opts)).find((s) => s.id === id);
