// A web app on the hosting platform with its database:
//   - a Registry entry, so the platform can pull the app's image from a private registry;
//   - a Postgres database, awaited until it runs;
//   - a Container running that image on a public URL, linked to the database (`links`): the
//     platform injects the database's DATABASE_URL into the app, which it needs to start. The
//     provider links the app before its first start, and awaits that start.
//
// Nothing sets `name`: the provider names each resource from its name here and a random suffix
// (`web-3f9a1c2`), or by the project's pulumi:autonaming pattern, so a second stack of this program
// (a stack per pull request) never meets the first one's names.
//
// Configuration (all optional):
//   pulumi config set image registry.example.com/demo/web:1.1.0   # a new release, updated in place
//   pulumi config set registryUsername deploy
//   pulumi config set --secret registryPassword <token>
// and for the provider: hosting:baseUrl, hosting:token (--secret), hosting:projectId.
import * as pulumi from "@pulumi/pulumi";
import * as hosting from "@hosting/pulumi";

const config = new pulumi.Config();
// Every release gets its own immutable tag; the platform refuses `latest`.
const image = config.get("image") ?? "registry.example.com/demo/web:1.0.0";
const registryHost = image.split("/")[0];

const registry = new hosting.Registry("registry", {
  host: registryHost,
  username: config.get("registryUsername"),
  password: config.getSecret("registryPassword"),
});

const db = new hosting.Postgres("db");

const app = new hosting.Container(
  "web",
  {
    image,
    httpPort: 8080,
    public: true,
    env: { LOG_LEVEL: "info" },
    links: [db.id],
  },
  { dependsOn: [registry] },
);

export const publicUrl = app.publicUrl;
export const appStatus = app.status;
export const databaseHost = db.internalHost;
/** The variable the link puts into the app's environment (its value is secret, in app.injectedEnv). */
export const databaseEnvVar = db.connection.envVar;
