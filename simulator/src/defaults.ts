import type { SimUser, Switches } from "./types";

export const ALICE: SimUser = {
  token: "sim-token-alice",
  userId: "alice",
  projects: ["00000000-0000-4000-8000-0000000a11ce"],
};

export const BOB: SimUser = {
  token: "sim-token-bob",
  userId: "bob",
  projects: ["00000000-0000-4000-8000-000000000b0b"],
};

export const DEFAULT_USERS: SimUser[] = [ALICE, BOB];

export const DEFAULT_SWITCHES: Readonly<Switches> = Object.freeze({
  volumesEnabled: true,
  volumeProvisioningMs: 3000,
  serviceStartMs: 0,
  crashingImageTags: [],
  linkEnvInConsumer: false,
  appsRequireEnv: [],
  linkRestartsConsumer: false,
  normalizesUnicode: false,
  billing: "ok",
  capacityGb: 1000,
  errorShape: "code",
  rateLimitPerSecond: 0,
  maxRequestBodyBytes: 1024 * 1024,
});
