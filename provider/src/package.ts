// The hosting package: its name, its resources, its functions and its configuration. The plugin,
// schema.json, the SDK, the docs and hosting-export all derive from this one declaration.
import type { PackageDeclaration } from "./framework/declare";
import { functions } from "./functions";
import { providerConfig } from "./providerConfig";
import { resources } from "./resources";

export const hostingPackage: PackageDeclaration = {
  name: "hosting",
  about: {
    displayName: "Hosting",
    description:
      "Apps, managed databases, service links, image registries and block volumes on the container hosting platform.",
    keywords: ["pulumi", "hosting", "containers", "kind/native"],
    license: "Apache-2.0",
    publisher: "pulumi-hosting",
  },
  nodejsPackage: "@hosting/pulumi",
  resources,
  functions,
  config: providerConfig,
};
