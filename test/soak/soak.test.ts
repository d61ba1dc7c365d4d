// A short, fixed-seed run of the fault-injection soak (the full runs are `npm run soak -- --ops 500`,
// and `npm run soak -- --creates 100`, every other create a linked app, at 30% faults).
import { describeReport, runSoak, type SoakReport } from "../../soak/soak";

const SEED = 42;
let report: SoakReport;

beforeAll(async () => {
  report = await runSoak({ ops: 60, seed: SEED, faultRate: 0.2 });
});

test("faults were injected, and most were recovered from", () => {
  expect(report.ops).toBe(60);
  expect(report.faults.injected).toBeGreaterThan(5);
  expect(report.faults.recovered).toBeGreaterThan(0);
});

test("0 orphans, 0 ghosts, 0 duplicates", () => {
  const summary = describeReport(report);
  expect({ orphans: report.orphans, ghosts: report.ghosts, duplicates: report.duplicates, summary }).toEqual({
    orphans: [],
    ghosts: [],
    duplicates: [],
    summary,
  });
});

test("every failed operation names the API code (or is a volume wait that gave up, with its id kept)", () => {
  expect(report.unnamed).toEqual([]);
  for (const failure of report.operations.filter((o) => !o.ok && !o.partial)) {
    expect(failure.faults.length).toBeGreaterThan(0);
  }
});

test("the teardown leaves nothing on the server", () => {
  expect(report.leftAfterTeardown).toEqual([]);
});

test("linked apps are among the creates, and no partial failure follows a single fault (each step is retried)", () => {
  expect(report.linkedApps.created).toBeGreaterThan(0);
  expect(report.failures.partialFromOneFault).toEqual([]);
});

test("a second up in the engine's order converges: every resource equals the platform, and a third diff sees no change", () => {
  expect(report.secondUp.notConverged).toEqual([]);
  expect(report.secondUp.converged).toBe(report.compared);
});
