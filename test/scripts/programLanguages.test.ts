// What scripts/program-languages.ts puts right in the programs `pulumi convert` writes, each a named mistake of a
// generator, on the text the generators write (the end-to-end suite runs the results: test/e2e/languages.test.ts,
// referenceExamples.test.ts).
import {
  csharpCustomTimeouts,
  goListResults,
  javaCustomTimeouts,
  javaLogicalNames,
  pclResources,
  withDroppedOptions,
} from "../../scripts/program-languages";

const PCL = `resource ordersDb "hosting:index:Postgres" {
\t__logicalName = "orders-db"
\tstorageGb = 10
}

resource data "hosting:index:Volume" {
\t__logicalName = "data"
\tsizeGb = 20
}
`;

const YAML = `name: example
runtime: yaml
resources:
  orders-db:
    type: hosting:Postgres
    properties:
      storageGb: 10
  data:
    type: hosting:Volume
    properties:
      sizeGb: 20
    options:
      customTimeouts:
        create: 20m
        delete: 1h30m
`;

describe("withDroppedOptions: the customTimeouts pulumi-yaml's converter drops, back in the PCL", () => {
  test("as the resource's options block, which the generators read", () => {
    const fixed = withDroppedOptions(PCL, YAML);
    expect(fixed).toContain(
      '\tsizeGb = 20\n\toptions {\n\t\tcustomTimeouts = { create = "20m", delete = "1h30m" }\n\t}\n}',
    );
    expect(pclResources(fixed)).toEqual([
      { variable: "ordersDb", logicalName: "orders-db" },
      { variable: "data", logicalName: "data", customTimeouts: { create: "20m", delete: "1h30m" } },
    ]);
  });

  test("into an options block the resource has", () => {
    const pcl = PCL.replace("\tsizeGb = 20\n", "\tsizeGb = 20\n\toptions {\n\t\tdependsOn = [ordersDb]\n\t}\n");
    expect(withDroppedOptions(pcl, YAML)).toContain(
      '\toptions {\n\t\tcustomTimeouts = { create = "20m", delete = "1h30m" }\n\t\tdependsOn = [ordersDb]\n\t}\n}',
    );
  });

  test("another dropped option fails, naming it, rather than a program without it", () => {
    expect(() =>
      withDroppedOptions(PCL, YAML.replace("customTimeouts:", "deleteBeforeReplace: true\n      x:")),
    ).toThrow("the YAML converter drops deleteBeforeReplace of data");
  });
});

test("javaLogicalNames: each resource and output under its name in the program, not its variable's", () => {
  const java = [
    '        var ordersDb = new Postgres("ordersDb", PostgresArgs.builder()',
    '        var data = new Volume("data", VolumeArgs.builder()',
    '        ctx.export("firstUrl", web.publicUrl());',
    '        ctx.export("host", db.host());',
  ].join("\n");
  expect(javaLogicalNames(java, pclResources(PCL), new Map([["firstUrl", "first-url"]]))).toBe(
    [
      '        var ordersDb = new Postgres("orders-db", PostgresArgs.builder()',
      '        var data = new Volume("data", VolumeArgs.builder()',
      '        ctx.export("first-url", web.publicUrl());',
      '        ctx.export("host", db.host());',
    ].join("\n"),
  );
});

const JAVA = `import io.github.pulumihosting.hosting.VolumeArgs;
import java.util.List;

public class App {
    public static void stack(Context ctx) {
        var data = new Volume("data", VolumeArgs.builder()
            .sizeGb(20)
            .build());

    }
}
`;

test("javaCustomTimeouts: a CustomResourceOptions with the timeouts, and its imports", () => {
  const fixed = javaCustomTimeouts(JAVA, pclResources(withDroppedOptions(PCL, YAML)));
  expect(fixed).toContain(
    [
      '        var data = new Volume("data", VolumeArgs.builder()',
      "            .sizeGb(20)",
      "            .build(), CustomResourceOptions.builder()",
      "                .customTimeouts(CustomTimeouts.builder()",
      "                    .create(Duration.ofMinutes(20))",
      "                    .delete(Duration.ofMinutes(90))",
      "                    .build())",
      "                .build());",
    ].join("\n"),
  );
  expect(fixed).toContain(
    "import com.pulumi.resources.CustomResourceOptions;\nimport com.pulumi.resources.CustomTimeouts;\nimport java.time.Duration;\nimport java.util.List;",
  );
  expect(javaCustomTimeouts(JAVA, pclResources(PCL))).toBe(JAVA);
});

test("csharpCustomTimeouts: a CustomResourceOptions with the timeouts, and `using System;`", () => {
  const csharp = `using Pulumi;

return await Deployment.RunAsync(() => 
{
    var data = new Hosting.Volume("data", new()
    {
        SizeGb = 20,
    });

});
`;
  const fixed = csharpCustomTimeouts(csharp, pclResources(withDroppedOptions(PCL, YAML)));
  expect(fixed).toBe(`using System;
using Pulumi;

return await Deployment.RunAsync(() => 
{
    var data = new Hosting.Volume("data", new()
    {
        SizeGb = 20,
    }, new CustomResourceOptions
    {
        CustomTimeouts = new CustomTimeouts
        {
            Create = TimeSpan.FromMinutes(20),
            Delete = TimeSpan.FromMinutes(90),
        },
    });

});
`);
});

test("goListResults: a list of a function's result through its output's accessor", () => {
  const go = `\t\tctx.Export("services", containers.ApplyT(func(containers hosting.GetContainersResult) ([]hosting.GetContainersItem, error) {
\t\t\treturn containers.Services.([]hosting.GetContainersItem), nil
\t\t}).(pulumi.ArrayOutput))`;
  expect(goListResults(go)).toBe('\t\tctx.Export("services", containers.Services())');
});
