// What to do about an API error, said once for every resource. Resource files add their own
// wording where the program's terms matter (autoscaling, disabled volumes).
import { isApiError, isNameTaken } from "../api/errors";

const HINTS: Record<string, string> = {
  UNAUTHORIZED: "check the token: `pulumi config set hosting:token --secret <token>`",
  INSUFFICIENT_BALANCE: "the billing account has no balance; top it up and run `pulumi up` again",
  ACCOUNT_NOT_INITIALIZED: "the billing account is not set up yet; set it up in the portal and run `pulumi up` again",
  ACCOUNT_SUSPENDED: "the billing account is suspended; contact the platform",
  PROJECT_SUSPENDED: "the project is suspended; contact the platform",
  INSUFFICIENT_CAPACITY: "the account cannot reserve that much storage; choose a smaller size or ask for more capacity",
  RWO_REPLICA_LIMIT: "a volume attaches only to an app with one replica; set `replicas: 1` on the app first",
  VOLUME_ALREADY_ATTACHED: "the volume already has a consumer; delete its other VolumeAttachment first",
  ALREADY_ATTACHED: "the volume is already attached to this app",
  MOUNT_PATH_IN_USE: "the app already has another volume at this mountPath; choose another path",
  BAD_IMAGE: "the image needs a unique, immutable tag (never `latest`)",
  RATE_LIMITED:
    "the API kept answering 429 for as long as the call had time; run it again when the API is less busy, or lower `pulumi up --parallel`",
};

/** A create refused because the name is taken, whatever code the API gave it. */
const NAME_TAKEN =
  "another resource in this scope has this name: choose another name, leave `name` out so that the provider names the resource (autonaming), or adopt the existing one with `pulumi import`. If this create replaces a resource that keeps its name (`pulumi up --replace`, a taint, a replacementTrigger: the engine asks no Diff for those), the engine creates the new one before it deletes the old, so the old one still holds the name: set the resource option `deleteBeforeReplace: true`, and the old one is deleted first";

/** The error's message with what to do appended, when we know. */
export function withHint(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (!isApiError(err)) return message;
  const hint = isNameTaken(err) ? NAME_TAKEN : HINTS[err.code];
  return hint ? `${message}: ${hint}` : message;
}
