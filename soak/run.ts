// `npm run soak -- --ops 500 --seed 7` (or make soak ARGS="--ops 500 --seed 7"): the seeded
// fault-injection soak of soak/soak.ts. Exits non-zero unless it ends with 0 orphans, 0 ghosts,
// 0 duplicates, every failure naming its code, no partial failure after a single fault, every
// resource converged by a second `up` (state equal to the platform, a third Diff of nothing), and
// nothing left after the teardown.
//   --ops N         operations (default 500)
//   --creates N     creates alone, N of them, every other one a linked app (default rate 0.3)
//   --seed N        seed (default: random, printed so the run can be repeated)
//   --rate P        probability that one API request meets a fault (default 0.08; 0.3 with --creates)
//   --verbose       one line per operation
//   --json FILE     write the full report (every operation) to FILE
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { describeReport, runSoak } from "./soak";

async function main() {
  const { values } = parseArgs({
    options: {
      ops: { type: "string", default: "500" },
      creates: { type: "string" },
      seed: { type: "string" },
      rate: { type: "string" },
      verbose: { type: "boolean", default: false },
      json: { type: "string" },
    },
  });
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  const createsOnly = values.creates !== undefined;
  const ops = Number(values.creates ?? values.ops);
  const rate = Number(values.rate ?? (createsOnly ? 0.3 : 0.08));
  if (!Number.isInteger(seed) || !Number.isInteger(ops) || ops < 1 || !(rate >= 0 && rate <= 1)) {
    throw new Error(
      "usage: --ops <positive integer> | --creates <positive integer>, --seed <integer> [--rate <0..1>] [--verbose] [--json <file>]",
    );
  }
  const what = createsOnly ? `${ops} creates` : `${ops} operations`;
  process.stdout.write(`soak: seed ${seed}, ${what} (repeat with --seed ${seed})\n`);
  const report = await runSoak({
    ops,
    createsOnly,
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
    report.failures.partialFromOneFault.length === 0 &&
    report.secondUp.notConverged.length === 0 &&
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
