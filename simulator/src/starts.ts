// How a service start (create, rollout, start, restart) ends. The outcome is decided when the start
// begins and stored on the record, so a start pending across a simulator restart still ends the same way.
import { imageTag } from "./images";
import type { SimService, StartOutcome } from "./types";

/** Only container apps crash: a managed database's image is the platform's, never the user's. */
export function startOutcome(service: SimService, crashingImageTags: readonly string[]): StartOutcome {
  const crashes = service.type === "container" && crashingImageTags.includes(imageTag(service.image));
  return crashes ? "failed" : "running";
}

/** What the service logs when its start ends; a failed start says why, as the logs of a real crash would. */
export function startEndedLines(service: SimService, outcome: StartOutcome): string[] {
  if (outcome === "running") return [`listening on port ${service.port}`];
  return [
    "Error: Cannot find module '/app/server.js'",
    "process exited with code 1",
    "container failed to start: exit code 1 (CrashLoopBackOff)",
  ];
}
