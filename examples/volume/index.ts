// A block volume attached to an app.
//
// A volume is ReadWriteOnce: the app runs exactly one replica, and the volume has one app at a
// time. Its size only grows, in place:
//   pulumi config set sizeGb 20     # then `pulumi up`: the volume grows; the data stays
// A smaller value fails at preview, before anything changes (shrinking would lose data).
//
// Configuration: sizeGb (default 10), image; and for the provider hosting:baseUrl,
// hosting:token (--secret), hosting:projectId.
import * as pulumi from "@pulumi/pulumi";
import * as hosting from "@hosting/pulumi";

const config = new pulumi.Config();
const sizeGb = config.getNumber("sizeGb") ?? 10;
const image = config.get("image") ?? "registry.example.com/demo/files:1.0.0";

// No `name`s: the provider names them (`files-3f9a1c2`), so stacks of this program never clash.
const app = new hosting.Container("files", {
  image,
  replicas: 1,
});

// Creation waits until the platform reports the volume running; allow it up to 15 minutes.
const volume = new hosting.Volume("data", { sizeGb }, { customTimeouts: { create: "15m" } });

const attachment = new hosting.VolumeAttachment("data-on-files", {
  volumeId: volume.id,
  containerId: app.id,
  mountPath: "/data",
});

export const publicUrl = app.publicUrl;
export const volumeId = volume.id;
export const volumeSizeGb = volume.sizeGb;
export const volumeStatus = volume.status;
/** `<volumeId>:<containerId>`, the id `pulumi import` takes for an attachment. */
export const attachmentId = attachment.id;
