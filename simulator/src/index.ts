// The simulator's public entry point (docs/CONTRACTS.md).
import type { AddressInfo } from "node:net";
import { Core } from "./core";
import { createHttpFront } from "./server";
import type { Simulator, SimulatorOptions } from "./types";
export type { SimLink } from "./rules/links";
export type { SimRegistry } from "./rules/registries";
export type { SimService } from "./rules/services";
export type { SimAttachment, SimVolume } from "./rules/volumes";

export { ALICE, BOB, DEFAULT_USERS, DEFAULT_SWITCHES } from "./defaults";
export { randomFaults, seededRandom, type FaultSource, type RandomFaultName, type RandomFaults } from "./chaos";
export type {
  BillingState,
  DatabaseKind,
  Fault,
  FaultKind,
  RequestLogEntry,
  ServiceType,
  SimKind,
  SimRecords,
  SimState,
  SimUser,
  Simulator,
  SimulatorControl,
  SimulatorOptions,
  Switches,
  WireConnection,
} from "./types";

/** Start a simulator on `options.port` (default 0: any free port) and `options.host` (default 127.0.0.1). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const core = new Core(options);
  const control = core.control();
  const front = createHttpFront(core, control, { maxHeaderBytes: options.maxHeaderBytes });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    front.server.once("error", reject);
    front.server.listen(options.port ?? 0, host, () => {
      front.server.off("error", reject);
      resolve();
    });
  });
  const { port } = front.server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    control,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        front.cancelPending();
        front.server.close(() => resolve());
        front.server.closeAllConnections();
      })),
  };
}
