// How a service start (create, rollout, start, restart) ends. The outcome is decided when the start
// begins and stored on the record, so a start pending across a simulator restart still ends the same way.
import { imageTag } from "./images";
import type { ServiceType, StartOutcome } from "./types";

/** What of a service record (rules/services.ts) decides how its start ends, and what its logs then say. */
export interface Starting {
  type: ServiceType;
  image: string;
  env: Record<string, string>;
  port: number;
}

/** What decides a start: the tags that crash, the variables an app needs, and those its links inject. */
export interface StartConditions {
  crashingImageTags: readonly string[];
  appsRequireEnv: readonly string[];
  injected: ReadonlySet<string>;
}

/**
 * Only container apps crash: a managed database's image is the platform's, never the user's. An
 * app that lacks a variable it needs fails as a real one does, on reading its configuration.
 */
export function startOutcome(service: Starting, conditions: StartConditions): StartOutcome {
  if (service.type !== "container") return "running";
  const missingEnv = conditions.appsRequireEnv.filter(
    (name) => !(name in service.env) && !conditions.injected.has(name),
  );
  if (missingEnv.length > 0) return { missingEnv };
  return conditions.crashingImageTags.includes(imageTag(service.image)) ? "failed" : "running";
}

/** The status a start ends in. */
export const endStatus = (outcome: StartOutcome): "running" | "failed" =>
  outcome === "running" ? "running" : "failed";

/** What the service logs when its start ends; a failed start says why, as the logs of a real crash would. */
export function startEndedLines(service: Starting, outcome: StartOutcome): string[] {
  if (outcome === "running") return [`listening on port ${service.port}`];
  if (typeof outcome === "object") {
    return [
      ...outcome.missingEnv.map((name) => `Error: environment variable ${name} is not set`),
      "process exited with code 1",
      "container failed to start: exit code 1 (CrashLoopBackOff)",
    ];
  }
  return [
    "Error: Cannot find module '/app/server.js'",
    "process exited with code 1",
    "container failed to start: exit code 1 (CrashLoopBackOff)",
  ];
}
