// The body of a huge_body fault: the opening of a JSON array of service records that never closes,
// cut at exactly the size asked for. Every chunk is a view of one shared block, and chunks are
// written only as fast as the client reads them, so hundreds of megabytes cost one block of memory.

const RECORD = `${JSON.stringify({
  id: "00000000-0000-4000-8000-00000000b16b",
  project_id: "00000000-0000-4000-8000-0000000a11ce",
  name: "huge",
  display_name: "huge",
  type: "container",
  runtime: "docker",
  image: "registry.sim.hosting.test/acme/huge:1.0.0",
  port: 8080,
  replicas: 1,
  status: "running",
  internal_host: "huge.p-00000000.svc.cluster.local:8080",
  public_url: "https://huge-000000.apps.sim.hosting.test",
  public: true,
  cpu_milli: 250,
  memory_mb: 512,
  storage_gb: 1,
  env: {},
  connection: null,
  created_at: "2024-01-01T00:00:00.000Z",
  updated_at: "2024-01-01T00:00:00.000Z",
  marketplace_app: null,
})},`;

const BLOCK_BYTES = 64 * 1024;
const OPEN = Buffer.from("[");
const BLOCK = Buffer.from(RECORD.repeat(Math.floor(BLOCK_BYTES / RECORD.length)));

/** `[` then records, each followed by a comma, `bytes` bytes in all, in chunks of at most one block. */
export function* hugeBodyChunks(bytes: number): Generator<Buffer> {
  if (bytes <= 0) return;
  yield OPEN;
  for (let left = bytes - OPEN.length; left > 0; left -= BLOCK.length) {
    yield left >= BLOCK.length ? BLOCK : BLOCK.subarray(0, left);
  }
}

/** What writeChunks writes to: a ServerResponse, or any Writable. */
export interface Sink {
  readonly destroyed: boolean;
  write(chunk: Buffer): boolean;
  end(): unknown;
  once(event: "drain" | "close", listener: () => void): unknown;
  off(event: "drain" | "close", listener: () => void): unknown;
}

/**
 * Write the chunks, then end; after a write the sink refuses (its buffer is full), wait for it to
 * drain. Stops, taking no further chunk, once the sink closes (the client went away). True if all
 * were written.
 */
export async function writeChunks(sink: Sink, chunks: Iterable<Buffer>): Promise<boolean> {
  for (const chunk of chunks) {
    if (sink.destroyed) return false;
    if (!sink.write(chunk) && !(await drained(sink))) return false;
  }
  sink.end();
  return true;
}

/** True when the sink drains, false if it closes first. */
function drained(sink: Sink): Promise<boolean> {
  return new Promise((resolve) => {
    if (sink.destroyed) return resolve(false);
    const onDrain = () => {
      sink.off("close", onClose);
      resolve(true);
    };
    const onClose = () => {
      sink.off("drain", onDrain);
      resolve(false);
    };
    sink.once("drain", onDrain);
    sink.once("close", onClose);
  });
}
