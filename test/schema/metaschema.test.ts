// schema.json against the Pulumi package metaschema (JSON Schema 2020-12), the file the engine
// gets from GetSchema and `pulumi package gen-sdk` reads.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { tokenOf } from "../../provider/src/framework/declare";
import { hostingPackage } from "../../provider/src/package";

// pulumi/pulumi's pkg/codegen/schema/pulumi.json, kept in the repository (reference/README.md
// says which release it is, and its license).
const METASCHEMA = resolve(__dirname, "../../reference/pulumi-package-metaschema.json");
const schema = JSON.parse(readFileSync(resolve(__dirname, "../../schema.json"), "utf8"));

// strict: false because the metaschema uses annotations that ajv's strict mode rejects. The two
// formats it names are checked for real (ajv itself ships none).
const ajv = new Ajv2020({ strict: false, allErrors: true });
const parses = (parse: () => unknown) => {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
};
ajv.addFormat("regex", (pattern: string) => parses(() => new RegExp(pattern, "u")));
ajv.addFormat("uri-reference", (ref: string) => !/\s/.test(ref) && parses(() => new URL(ref, "https://example.com/")));
const validate = ajv.compile(JSON.parse(readFileSync(METASCHEMA, "utf8")));
const problems = (doc: unknown) =>
  validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);

test("the vendored metaschema is the file reference/README.md names (by its SHA-256)", () => {
  const readme = readFileSync(resolve(__dirname, "../../reference/README.md"), "utf8");
  const stated = /SHA-256 `([0-9a-f]{64})`/.exec(readme)?.[1];
  expect(createHash("sha256").update(readFileSync(METASCHEMA)).digest("hex")).toBe(stated);
});

test("schema.json is a valid Pulumi package schema", () => {
  expect(problems(schema)).toEqual([]);
});

test("the validator does reject what the metaschema forbids", () => {
  const broken = structuredClone(schema);
  broken.name = "not a name";
  broken.resources["hosting:index:Volume"].properties.sizeGb.type = "int";
  broken.resources["hosting:index:Volume"].requiredInputs = "name";
  broken.resources["hosting:index:Postgres"].properties.connection.$ref = "#/types/no such type";
  const found = problems(broken).join("\n");
  expect(found).toMatch(/^\/name must match pattern/m);
  expect(found).toMatch(/sizeGb\/type must be equal to one of the allowed values/);
  expect(found).toMatch(/requiredInputs must be array/);
  expect(found).toMatch(/connection\/\$ref must match format "uri-reference"/);
});

test("schema.json declares what the SDK generator and the engine rely on", () => {
  expect(schema.name).toBe("hosting");
  expect(schema.version).toBe(require("../../package.json").version);
  expect(schema.language.nodejs.packageName).toBe("@hosting/pulumi");
  const tokens = (names: string[]) => names.map((name) => tokenOf(hostingPackage, name)).sort();
  expect(Object.keys(schema.resources).sort()).toEqual(tokens(hostingPackage.resources.map((r) => r.typeName)));
  expect(Object.keys(schema.functions).sort()).toEqual(tokens(hostingPackage.functions.map((fn) => fn.name)));
  expect(schema.config.variables.token).toMatchObject({
    secret: true,
    defaultInfo: { environment: ["HOSTING_TOKEN"] },
  });
});

test(
  "schema.json carries the package's metadata, from package.json, " + "and what each language's SDK generator needs",
  () => {
    const pkg = require("../../package.json");
    const repository = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(pkg.repository.url)?.[1];
    expect(repository).toBeDefined();
    expect(schema).toMatchObject({
      homepage: pkg.homepage,
      repository,
      license: pkg.license,
      publisher: expect.any(String),
    });
    expect(schema.keywords).toEqual(expect.arrayContaining(["pulumi", "kind/native"]));
    // The engine downloads the plugin from the same repository's releases.
    expect(schema.pluginDownloadURL).toBe(`github://api.github.com/${new URL(repository!).pathname.slice(1)}`);
    expect(schema.language.go.importBasePath).toBe(`${repository!.replace(/^https:\/\//, "")}/sdk/go/hosting`);
    expect(schema.language.python.packageName).toBe("pulumi_hosting");
    expect(schema.language.csharp.packageReferences).toHaveProperty("Pulumi");
  },
);

test("every object's required properties are among its properties, as Pulumi's schema binder demands", () => {
  // pkg/codegen/schema/bind.go reports `unknown required property` as an error, which stops code
  // generation (`pulumi import --generate-code`, `pulumi package gen-sdk`); the metaschema cannot say it.
  const unknown: string[] = [];
  const check = (path: string, properties: Record<string, unknown> | undefined, required: string[] | undefined) => {
    for (const name of required ?? []) if (!(name in (properties ?? {}))) unknown.push(`${path}: ${name}`);
  };
  for (const [token, type] of Object.entries<any>(schema.types ?? {}))
    check(`types/${token}`, type.properties, type.required);
  for (const [token, r] of Object.entries<any>(schema.resources ?? {})) {
    check(`resources/${token}`, r.properties, r.required);
    check(`resources/${token} inputs`, r.inputProperties, r.requiredInputs);
  }
  for (const [token, fn] of Object.entries<any>(schema.functions ?? {})) {
    check(`functions/${token} inputs`, fn.inputs?.properties, fn.inputs?.required);
    check(`functions/${token} outputs`, fn.outputs?.properties, fn.outputs?.required);
  }
  check("provider", schema.provider?.properties, schema.provider?.required);
  check("provider inputs", schema.provider?.inputProperties, schema.provider?.requiredInputs);
  check("config", schema.config?.variables, schema.config?.required);
  expect(unknown).toEqual([]);
});
