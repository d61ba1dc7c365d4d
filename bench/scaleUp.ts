// 9 and 10. `pulumi up` of 1,000 containers against a server that allows 20 requests/s (429 with
// Retry-After beyond): Check + Create over gRPC for each, 16 at a time (the engine's default
// parallelism on a 4-CPU box). Beside it the ideal: the requests the run needed (those the server
// accepted: the POSTs and the list reads that see each app leave `provisioning`) ÷ 20/s.
//   9: the plugin as built, with its adaptive (AIMD) rate control;
//  10: the same up through a plugin whose client uses the simple window-plus-pause control
//      (windowPause.ts) instead: the benchmark that justifies the AIMD controller, or not.
import { ENGINE_PARALLELISM, bundledPlugin, ms, thousands, times, type Row } from "./lib";
import { LIMIT, upAtLimit, type UpFigures } from "./rateLimit";

const CREATES = 1_000;
const MAX_IDEAL_RATIO = 1.3;
/** Row 4's limit on the share of requests answered 429; row 10 holds the simpler control to it. */
const MAX_429_SHARE = 0.1;
/** The simple control's in-flight window: the adaptive control's starting window. */
const WINDOW = 6;

/** accepted ÷ LIMIT: the least time the server's limit allows for the requests the run needed. */
const idealMs = (f: UpFigures) => (f.accepted / LIMIT) * 1000;
const meetsTargets = (f: UpFigures) =>
  f.failures.length === 0 && f.containers === CREATES && f.wallMs <= MAX_IDEAL_RATIO * idealMs(f);
const politeEnough = (f: UpFigures) => f.share <= MAX_429_SHARE;
const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
const say = (f: UpFigures) =>
  `${ms(f.wallMs)} (${times(f.wallMs / idealMs(f))} ideal), ${thousands(f.requests)} requests, ${f.limited} answered 429 (${percent(f.share)}), ${f.failures.length} failures, ${thousands(f.containers)} containers`;
const ideal = (f: UpFigures) => `ideal: ${thousands(f.accepted)} requests needed ÷ ${LIMIT}/s = ${ms(idealMs(f))}`;

export async function scaleUp(): Promise<Row[]> {
  const adaptive = await upAtLimit(CREATES);
  const window = await upAtLimit(CREATES, {
    command: await bundledPlugin("bench/windowPlugin.ts"),
    env: { BENCH_WINDOW: String(WINDOW) },
  });
  const target = `0 failures, ${thousands(CREATES)} containers, ≤ ${MAX_IDEAL_RATIO}× ideal`;
  const windowAsGood = meetsTargets(window) && politeEnough(window);
  return [
    {
      id: 9,
      name: `\`up\` of ${thousands(CREATES)} containers at a server limit of ${LIMIT} req/s (${ENGINE_PARALLELISM} at a time)`,
      baseline: ideal(adaptive),
      measured: say(adaptive),
      ratio: `${times(adaptive.wallMs / idealMs(adaptive))} ideal`,
      target,
      met: meetsTargets(adaptive),
      figures: {
        creates: CREATES,
        limit: LIMIT,
        ...adaptive,
        idealMs: idealMs(adaptive),
        oneRequestPerCreateMs: (CREATES / LIMIT) * 1000,
      },
      notes: [
        `A Container create is the POST and a share of the list reads that see the app leave \`provisioning\` (${(adaptive.accepted / CREATES).toFixed(2)} accepted requests per create here); at one request per create the ideal would be ${ms((CREATES / LIMIT) * 1000)}.`,
      ],
    },
    {
      id: 10,
      name: `Rate control: the same \`up\` with a window-plus-pause control (≤ ${WINDOW} in flight, all wait out a 429's Retry-After, no pacing)`,
      baseline: `adaptive (AIMD, row 9): ${say(adaptive)}`,
      measured: `window-plus-pause: ${say(window)}; ${ideal(window)}`,
      ratio: `${times(window.wallMs / adaptive.wallMs)} AIMD's time; ${times(window.share / Math.max(adaptive.share, 1e-9))} its 429 share`,
      target: `row 9's, and ≤ ${percent(MAX_429_SHARE)} answered 429 (row 4's limit)`,
      met: windowAsGood,
      figures: {
        window: { ...window, idealMs: idealMs(window) },
        adaptive: { ...adaptive, idealMs: idealMs(adaptive) },
      },
      notes: [
        `Window-plus-pause ${meetsTargets(window) ? "meets" : "misses"} row 9's targets (the adaptive control ${meetsTargets(adaptive) ? "meets" : "misses"} them), with ${percent(window.share)} of its requests answered 429 against the adaptive control's ${percent(adaptive.share)}: ` +
          (windowAsGood
            ? "it would do as well, so the simpler control could replace the adaptive one."
            : "the adaptive control earns its place by what it spares the server, not by time. " +
              "A fixed window cannot know the server's rate: each time the bucket runs dry, " +
              "every request in flight is refused before the first 429 comes back."),
      ],
    },
  ];
}
