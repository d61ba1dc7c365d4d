// The gRPC options of the plugin's two ends: its server (start.ts, and the benchmarks' stand-ins
// for it) and its client of the engine's Log service (engineLog.ts).

/** The engine raises gRPC's message limit to 400 MiB for large states; so do we. */
const MAX_MESSAGE_BYTES = 400 * 1024 * 1024;

/**
 * channelz (gRPC's live introspection service) is never served here, yet it counts and
 * timestamps every call: about 5% of the plugin's busy time in a refresh of 1,000.
 */
const WITHOUT_CHANNELZ = { "grpc.enable_channelz": 0 } as const;

export const SERVER_OPTIONS = {
  "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
  "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  ...WITHOUT_CHANNELZ,
};

export const ENGINE_CLIENT_OPTIONS = { "grpc.max_receive_message_length": MAX_MESSAGE_BYTES, ...WITHOUT_CHANNELZ };
