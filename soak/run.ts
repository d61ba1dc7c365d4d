// `npm run soak -- --ops 500 --seed 7` (or make soak ARGS="--ops 500 --seed 7"): the seeded
// fault-injection soak of soak/soak.ts. Exits non-zero unless it ends with 0 orphans, 0 ghosts,
// 0 duplicates, every failure naming its code, and nothing left after the teardown.
//   --ops N         operations (default 500)
//   --seed N        seed (default: random, printed so the run can be repeated)
//   --rate P        probability that one API request meets a fault (default 0.08)
//   --verbose       one line per operation
//   --json FILE     write the full report (every operation) to FILE
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { describeReport, runSoak } from "./soak";

async function main() {
  const { values } = parseArgs({
    options: {
      ops: { type: "string", default: "500" },
      seed: { type: "string" },
      rate: { type: "string", default: "0.08" },
      verbose: { type: "boolean", default: false },
      json: { type: "string" },
    },
  });
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  const ops = Number(values.ops);
  const rate = Number(values.rate);
  if (!Number.isInteger(seed) || !Number.isInteger(ops) || ops < 1 || !(rate >= 0 && rate <= 1)) {
    throw new Error("usage: --ops <positive integer> --seed <integer> [--rate <0..1>] [--verbose] [--json <file>]");
  }
  process.stdout.write(`soak: seed ${seed}, ${ops} operations (repeat with --seed ${seed})\n`);
  const report = await runSoak({
    ops,
    seed,
    faultRate: rate,
    verbose: values.verbose,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(`${describeReport(report)}\n`);
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  const clean =
    report.orphans.length === 0 &&
    report.ghosts.length === 0 &&
    report.duplicates.length === 0 &&
    report.unnamed.length === 0 &&
    report.leftAfterTeardown.length === 0;
  return clean ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`soak failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(2);
  },
);
