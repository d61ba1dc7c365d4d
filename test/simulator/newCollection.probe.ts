// Run by test/resources/newResource.test.ts in a copy of the repository whose simulator has a
// `domains` collection: drives it over HTTP and prints what it saw, as JSON.
import { ALICE, startSimulator } from "../../simulator/src";

async function main(): Promise<void> {
  const sim = await startSimulator({ serviceStartMs: 0 });
  const project = `/v1/projects/${ALICE.projects[0]}`;
  const call = async (method: string, path: string, body?: unknown, token: string | undefined = ALICE.token) => {
    const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    const sent = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(sim.url + path, { method, headers, body: sent });
    const text = await response.text();
    return { status: response.status, allow: response.headers.get("allow"), body: text ? JSON.parse(text) : undefined };
  };
  const app = (name: string) => ({ name, image: "registry.sim.hosting.test/acme/web:1.0.0", http_port: 8080 });
  const world = () => (sim.control.snapshot() as unknown as { domains: unknown[] }).domains;
  try {
    const emptyWorld = world();
    const web = await call("POST", `${project}/containers`, app("web"));
    const created = await call("POST", `${project}/domains`, { name: "www", container_id: web.body.id });
    const listed = await call("GET", `${project}/domains`);
    const unknownField = await call("POST", `${project}/domains`, { name: "api", container: web.body.id });
    const wrongMethod = await call("PUT", `${project}/domains`, {});
    const afterCreate = world();
    const patched = await call("PATCH", `/_sim/domains/${created.body.id}`, { name: "wwww" }, undefined);
    const mutated = { status: patched.status, name: (world()[0] as { name: string }).name };
    const unknownKind = await call("DELETE", "/_sim/nope/1", undefined, undefined);
    await call("DELETE", `${project}/containers/${web.body.id}`);
    const afterAppDeleted = world();
    const second = await call("POST", `${project}/containers`, app("web2"));
    const domain = await call("POST", `${project}/domains`, { name: "www", container_id: second.body.id });
    const removed = await call("DELETE", `${project}/domains/${domain.body.id}`);
    console.log(
      JSON.stringify({
        app: web.body.id,
        emptyWorld,
        created: { status: created.status, body: created.body },
        listed: { status: listed.status, body: listed.body },
        unknownField: { status: unknownField.status, body: unknownField.body },
        wrongMethod: { status: wrongMethod.status, allow: wrongMethod.allow },
        world: afterCreate,
        mutated,
        unknownKind: { status: unknownKind.status, body: unknownKind.body },
        afterAppDeleted,
        deleted: { status: removed.status, left: world() },
      }),
    );
  } finally {
    await sim.close();
  }
}

void main();
