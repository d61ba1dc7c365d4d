// Every resource of the package.
import { container } from "./container";
import { mysql } from "./mysql";
import { postgres } from "./postgres";
import { redis } from "./redis";
import { registry } from "./registry";
import { serviceLink } from "./serviceLink";
import { volume } from "./volume";
import { volumeAttachment } from "./volumeAttachment";

export const resources = [container, postgres, mysql, redis, serviceLink, registry, volume, volumeAttachment];
