// A web app on the hosting platform with its database:
//   - a Registry entry, so the platform can pull the app's image from a private registry;
//   - a Container running that image on a public URL;
//   - a Postgres database;
//   - a ServiceLink from the app to the database, which injects the connection settings into
//     the app's environment.
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
    name: "demo-registry",
    host: registryHost,
    username: config.get("registryUsername"),
    password: config.getSecret("registryPassword"),
});

const app = new hosting.Container("web", {
    name: "web",
    image,
    httpPort: 8080,
    public: true,
    env: { LOG_LEVEL: "info" },
}, { dependsOn: [registry] });

const db = new hosting.Postgres("db", { name: "web-db" });

const link = new hosting.ServiceLink("web-to-db", {
    consumerServiceId: app.id,
    providerServiceId: db.id,
});

export const publicUrl = app.publicUrl;
export const appStatus = app.status;
export const databaseHost = db.internalHost;
/** The variable the link puts into the app's environment (its value is secret). */
export const databaseEnvVar = db.connection.envVar;
export const linkId = link.id;
