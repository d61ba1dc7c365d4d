// Shared helpers for the simulator tests: a started simulator and a tiny JSON client over real HTTP.
import { ALICE, BOB, startSimulator, type Simulator, type SimulatorOptions } from "../../simulator/src";

export const ALICE_PROJECT = ALICE.projects[0];
export const BOB_PROJECT = BOB.projects[0];
export const IMAGE = "registry.sim.hosting.test/acme/web:1.0.0";

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export class Client {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown;
    if (response.headers.get("content-type")?.startsWith("application/json")) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  get = (path: string) => this.call("GET", path);
  post = (path: string, body?: unknown) => this.call("POST", path, body);
  put = (path: string, body?: unknown) => this.call("PUT", path, body);
  patch = (path: string, body?: unknown) => this.call("PATCH", path, body);
  delete = (path: string) => this.call("DELETE", path);
}

/** Paths of alice's project. */
export const p = (rest: string, project = ALICE_PROJECT) => `/v1/projects/${project}${rest}`;

export interface Harness {
  sim: Simulator;
  alice: Client;
  bob: Client;
  admin: Client;
}

/**
 * Start one simulator for a test file and reset it before each test. `options` are the startup
 * switches (reset restores them). Call at the top of a describe block.
 */
export function useSimulator(options: SimulatorOptions = {}): Harness {
  const harness = {} as Harness;
  beforeAll(async () => {
    harness.sim = await startSimulator({ volumeProvisioningMs: 0, ...options });
    harness.alice = new Client(harness.sim.url, ALICE.token);
    harness.bob = new Client(harness.sim.url, BOB.token);
    harness.admin = new Client(harness.sim.url);
  });
  beforeEach(() => harness.sim.control.reset());
  afterAll(() => harness.sim?.close());
  return harness;
}

export async function createContainer(client: Client, fields: Record<string, unknown> = {}, project = ALICE_PROJECT) {
  const res = await client.post(p("/containers", project), { name: "web", image: IMAGE, http_port: 8080, ...fields });
  if (res.status !== 201) throw new Error(`container create failed: ${res.status} ${res.text}`);
  return res.body as Record<string, any>;
}

export async function createVolume(client: Client, fields: Record<string, unknown> = {}, project = ALICE_PROJECT) {
  const res = await client.post(p("/volumes", project), { name: "data", size_gb: 10, ...fields });
  if (res.status !== 201) throw new Error(`volume create failed: ${res.status} ${res.text}`);
  return res.body as Record<string, any>;
}

export async function findService(client: Client, id: string, project = ALICE_PROJECT) {
  const res = await client.get(p("/containers", project));
  return (res.body as Array<Record<string, any>>).find((service) => service.id === id);
}

/**
 * Poll until `check` holds (no fixed sleeps): for asynchronous transitions. The limit only turns a hang into a
 * message; it is far longer than any transition a test waits for takes, on a loaded machine too.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The error code of a failure in either error shape. */
export const codeOf = (res: Res): string | undefined => res.body?.code ?? res.body?.error;
