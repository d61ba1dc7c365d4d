// 17. A function's answer scales with its size (issue 32): `getContainers` over a list of about
// 6 MB, beside a Read over the same list (a Read lists the project too, then answers one record).
// Each call is made to a fresh plugin, whose peak RSS (VmHWM) is read after the answer; the two
// alternate round by round. The engine side takes the answer's bytes as they come (no decoding in
// this process), so the wall time is the plugin's.
// 18. The codec itself: a Container's `properties` Struct decoded and encoded by codec.ts, beside
// google-protobuf's Struct doing the same, in this process.
import * as grpc from "@grpc/grpc-js";
import { readFileSync } from "node:fs";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { decodeStruct, encodeStruct, type StructObject } from "../provider/src/server/codec";
import { ALICE } from "../simulator/src";
import { Plugin, addressed } from "../test/grpc/engine";
import {
  CONTAINER,
  IMAGE,
  PROJECT,
  alternate,
  api,
  kb,
  listPath,
  mb,
  median,
  ms,
  now,
  pool,
  remoteRig,
  roundRatios,
  timesSpread,
  type Row,
} from "./lib";
import { timedList } from "./refresh";

const ANSWER_BYTES = 6 * 1024 * 1024;
const ROUNDS = 5;
const SEED_CONCURRENCY = 32;
/** A record of a typical size: an app with a dozen variables. */
const ENV = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`VARIABLE_${i}`, `value-${i}-${"x".repeat(24)}`]));

const MAX_WALL_MS = 1_500;
const MAX_PEAK_MB = 250;
const MAX_RATIO = 3;

/** The plugin's peak resident memory so far (VmHWM), in MB. */
const peakRssMb = (pid: number) =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;

/**
 * One call, as the engine sends it, to a fresh plugin: wall time to the answer's last byte, the answer's size, the
 * plugin's peak RSS.
 */
async function onFreshPlugin(url: string, method: "read" | "invoke", request: { serializeBinary(): Uint8Array }) {
  const plugin = await Plugin.start();
  try {
    await plugin.configure({ baseUrl: url, token: ALICE.token, projectId: PROJECT });
    const client = new grpc.Client(`127.0.0.1:${plugin.port}`, grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": -1,
    });
    const definition = (
      provrpc.ResourceProviderService as unknown as Record<string, grpc.MethodDefinition<unknown, unknown>>
    )[method];
    const started = now();
    const bytes = await new Promise<Buffer>((resolve, reject) =>
      client.makeUnaryRequest(
        definition.path,
        (r: typeof request) => Buffer.from(r.serializeBinary()),
        (b: Buffer) => b,
        request,
        (err, b) => (err ? reject(err) : resolve(b!)),
      ),
    );
    const wallMs = now() - started;
    client.close();
    return { wallMs, answerBytes: bytes.length, peakMb: peakRssMb(plugin.pid!) };
  } finally {
    await plugin.stop();
  }
}

/** Containers until the project's list is about `bytes` long. */
async function seed(sim: { url: string }, bytes: number): Promise<{ count: number; firstId: string }> {
  const create = async (i: number) => {
    const res = await api(sim, "POST", listPath("containers"), {
      name: `app-${i}`,
      image: IMAGE,
      http_port: 8080,
      env: ENV,
    });
    if (res.status >= 300) throw new Error(`seeding app-${i}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json.id as string;
  };
  const firstId = await create(0);
  const one = (await timedList(sim)).listBytes;
  const count = Math.ceil(bytes / one);
  await pool(count - 1, SEED_CONCURRENCY, (i) => create(i + 1));
  return { count, firstId };
}

const range = (values: number[], format: (x: number) => string) =>
  `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;

export async function functionAnswer(): Promise<Row> {
  const rig = await remoteRig();
  try {
    const { count, firstId } = await seed(rig.sim, ANSWER_BYTES);
    const { listBytes } = await timedList(rig.sim);
    const read = addressed(new provproto.ReadRequest(), CONTAINER, "app-0");
    read.setId(firstId);
    const invoke = new provproto.InvokeRequest();
    invoke.setTok("hosting:index:getContainers");
    invoke.setArgs(Struct.fromJavaScript({}));
    const { reads, invokes } = await alternate(ROUNDS, {
      reads: () => onFreshPlugin(rig.sim.url, "read", read),
      invokes: () => onFreshPlugin(rig.sim.url, "invoke", invoke),
    });
    const time = roundRatios(
      invokes.map((r) => r.wallMs),
      reads.map((r) => r.wallMs),
    );
    const memory = roundRatios(
      invokes.map((r) => r.peakMb),
      reads.map((r) => r.peakMb),
    );
    const wall = median(invokes.map((r) => r.wallMs));
    const peak = median(invokes.map((r) => r.peakMb));
    const absolute = wall <= MAX_WALL_MS && peak <= MAX_PEAK_MB;
    const relative = time.median <= MAX_RATIO && memory.median <= MAX_RATIO;
    return {
      id: 17,
      name: `\`getContainers\` over a ${kb(listBytes)} list (${count.toLocaleString("en-US")} apps), each call to a fresh plugin (median of ${ROUNDS}, range)`,
      baseline: `a Read over the same list: ${range(
        reads.map((r) => r.wallMs),
        ms,
      )}, peak RSS ${range(
        reads.map((r) => r.peakMb),
        mb,
      )}`,
      measured: `${range(
        invokes.map((r) => r.wallMs),
        ms,
      )}, peak RSS ${range(
        invokes.map((r) => r.peakMb),
        mb,
      )}; answer ${kb(invokes[0].answerBytes)}`,
      ratio: `${timesSpread(time)} time, ${timesSpread(memory)} memory (each round against its Read)`,
      target: `≤ ${ms(MAX_WALL_MS)} and ≤ ${MAX_PEAK_MB} MB peak, or within ${MAX_RATIO}× the Read`,
      met: absolute || relative,
      figures: { listBytes, count, reads, invokes },
    };
  } finally {
    await rig.close();
  }
}

/** A real Container's `properties`, as a Read records them. */
const PROPERTIES: StructObject = {
  id: "3f1c2b7e-8a4d-4c1e-9b2a-6d5e4f3a2b1c",
  projectId: "0b5f6a5e-2a3c-4a51-9d0e-0c1f3c2b1a00",
  name: "web",
  image: IMAGE,
  httpPort: 8080,
  replicas: 2,
  cpuMilli: 250,
  memoryMb: 512,
  storageGb: 1,
  public: true,
  status: "running",
  internalHost: "web.p-0b5f6a5e.svc.cluster.local:8080",
  publicUrl: "https://web-3f1c2b.apps.example.com",
  env: {
    "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    value: { LOG_LEVEL: "info", PORT: "8080" },
  },
  createdAt: "2024-01-01T00:00:00.000Z",
  updatedAt: "2024-01-02T00:00:00.000Z",
};

const CODEC_ITERATIONS = 2_000;
const CODEC_ROUNDS = 9;
/** What the google-protobuf baseline does to the Struct, in order. */
const GOOGLE_STEPS = "deserializeBinary, toJavaScript, fromJavaScript, serializeBinary";

/** Microseconds per decode + encode, over `CODEC_ITERATIONS` of them. */
function perCall(roundTrip: (bytes: Uint8Array) => Uint8Array, bytes: Uint8Array): number {
  const started = now();
  for (let i = 0; i < CODEC_ITERATIONS; i++) roundTrip(bytes);
  return ((now() - started) * 1000) / CODEC_ITERATIONS;
}

export async function codecRoundTrip(): Promise<Row> {
  const bytes = Struct.fromJavaScript(PROPERTIES as any).serializeBinary();
  const viaCodec = (b: Uint8Array) => encodeStruct(decodeStruct(b));
  const viaGoogle = (b: Uint8Array) =>
    Struct.fromJavaScript(Struct.deserializeBinary(b).toJavaScript()).serializeBinary();
  if (!Buffer.from(viaCodec(bytes)).equals(Buffer.from(viaGoogle(bytes))))
    throw new Error("the codec and google-protobuf disagree");
  const { codec, google } = await alternate(
    CODEC_ROUNDS,
    { codec: async () => perCall(viaCodec, bytes), google: async () => perCall(viaGoogle, bytes) },
    { warmUp: 1 },
  );
  const ratio = roundRatios(codec, google);
  const us = (x: number) => `${x.toFixed(1)} µs`;
  return {
    id: 18,
    name: `A Container's \`properties\` Struct (${bytes.length} bytes) decoded to plain values and encoded again`,
    baseline: `google-protobuf (${GOOGLE_STEPS}): ${range(google, us)}`,
    measured: `codec.ts (protobufjs Reader/Writer, no message objects): ${range(codec, us)}`,
    ratio: timesSpread(ratio),
    target: "faster than google-protobuf, the same bytes",
    met: ratio.max < 1,
    figures: { bytes: bytes.length, codecUs: codec, googleUs: google },
  };
}
