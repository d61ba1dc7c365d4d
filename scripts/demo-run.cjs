// `make demo`'s way to run a TypeScript program where the Pulumi CLI has no Node.js language host (a CLI
// built from Go modules: scripts/pulumi-cli.sh): the program's own Automation API runs it as an inline
// program, and the real CLI does the rest (`pulumi up`, `preview`, `destroy` with `--client`), printing
// what it prints when it runs the program itself.
//
//   node scripts/demo-run.cjs <program dir> <stack> <up|preview|destroy> <pulumi bin dir>
//
// The program is the folder's index.ts, compiled by its own TypeScript and evaluated with a `require`
// rooted in the folder, as the language host loads it; its exports are the stack's outputs.
const { readFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { dirname, join, resolve } = require("node:path");

async function main() {
  const [dir, stackName, operation, binDir] = process.argv.slice(2);
  const programDir = resolve(dir);
  const requireFromProgram = createRequire(join(programDir, "index.ts"));
  // The examples take the SDK from this checkout (file:../../sdk/nodejs, a link), which loads its own copy
  // of @pulumi/pulumi. Its resources are registered through that copy's messages, so the Automation API
  // that serves them must be that copy too (from npm, one copy serves both: npm dedupes it).
  const requireFromSdk = createRequire(requireFromProgram.resolve("@hosting/pulumi"));
  const { LocalWorkspace, PulumiCommand } = requireFromSdk("@pulumi/pulumi/automation");
  const ts = requireFromProgram("typescript");
  const main = join(programDir, requireFromProgram("./package.json").main ?? "index.ts");
  const { outputText } = ts.transpileModule(readFileSync(main, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true },
    fileName: main,
  });
  const program = async () => {
    const module = { exports: {} };
    new Function("require", "module", "exports", outputText)(requireFromProgram, module, module.exports);
    return module.exports;
  };

  const pulumiCommand = await PulumiCommand.get({ root: dirname(resolve(binDir)) });
  const projectName = /^name:\s*(\S+)/m.exec(readFileSync(join(programDir, "Pulumi.yaml"), "utf8"))[1];
  const stack = await LocalWorkspace.selectStack(
    { stackName, projectName, program },
    { workDir: programDir, pulumiCommand },
  );
  const onOutput = (text) => process.stdout.write(text);
  if (operation === "up") await stack.up({ onOutput });
  else if (operation === "preview") await stack.preview({ diff: true, onOutput });
  else if (operation === "destroy") await stack.destroy({ onOutput });
  else throw new Error(`unknown operation ${operation}: up, preview or destroy`);
}

main().catch((err) => {
  // The CLI's own output was printed as it came; the Automation API's error repeats it whole.
  const message = String(err?.message ?? err);
  console.error(message.includes("stderr:") ? message.slice(message.indexOf("stderr:")) : message);
  process.exit(1);
});
