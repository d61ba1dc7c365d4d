import { preview } from "./overhead";
import { alternate, rig, roundRatios, spread } from "./lib";
import { resolve } from "node:path";
const dirs = Object.fromEntries((process.env.CMP ?? "bin,dist/oldbin").split(",").map((d) => [d, d]));
async function main() {
  const rounds = await alternate(Number(process.env.ROUNDS ?? 7), Object.fromEntries(Object.entries(dirs).map(([k, spec]) => [k, async () => {
    const [dir, options] = spec.split("|");
    const command = resolve(__dirname, "../..", dir, "pulumi-resource-hosting");
    const { plugin, close } = await rig({}, options ? { command: process.execPath, args: [...options.split(" "), command] } : { command });
    try { return (await preview(plugin, 1000)).cpuMs; } finally { await close(); }
  }])), { warmUp: 1 });
  const names = Object.keys(dirs);
  for (const k of names) console.log(k, JSON.stringify(spread(rounds[k])), rounds[k].join(" "));
  console.log("ratio", names[0], "/", names[1], JSON.stringify(roundRatios(rounds[names[0]], rounds[names[1]])));
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
