// Every resource of the package, in the order hosting-export lists them: each before those that
// refer to it.
import type { Declaration } from "./common";
import { container } from "./container";
import { mysql } from "./mysql";
import { postgres } from "./postgres";
import { redis } from "./redis";
import { registry } from "./registry";
import { serviceLink } from "./serviceLink";
import { volume } from "./volume";
import { volumeAttachment } from "./volumeAttachment";

export const resources: Array<Declaration<any, any>> = [
  registry,
  container,
  postgres,
  mysql,
  redis,
  volume,
  volumeAttachment,
  serviceLink,
];
