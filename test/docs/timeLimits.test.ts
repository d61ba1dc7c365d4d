// docs/testing.md ("Under load"): no test's time limit may depend on the machine being quiet. The suite has one
// limit, jest.config.js's testTimeout, which only turns a hang into a failure; no test or hook under test/ sets
// a lower one (jest.setTimeout, or a number after a test's or a hook's function), which a loaded machine would
// meet with a correct but slow run (test/docs/firstProgram.test.ts did, at 120 s).
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import * as ts from "typescript";
import { ROOT } from "./markdown";

const config = require("../../jest.config.js");
const HANG_ONLY_MS = 10 * 60_000;

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === "node_modules"
        ? []
        : files(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );

/** The value of a numeric expression made of literals (`120_000`, `30 * 60_000`), or undefined. */
function numeric(node: ts.Expression): number | undefined {
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isParenthesizedExpression(node)) return numeric(node.expression);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.AsteriskToken) {
    const [left, right] = [numeric(node.left), numeric(node.right)];
    return left !== undefined && right !== undefined ? left * right : undefined;
  }
  return undefined;
}

/** A test's or a hook's callee: `test`, `test.each(...)`, `beforeAll`, or a choice, `(ok ? test : test.skip)`. */
const LIMITED = /^(?:\(.*\b(?:test|it)\b.*\)$|(?:test|it|describe|beforeAll|afterAll|beforeEach|afterEach)\b)/s;

/** Every time limit a file sets: `jest.setTimeout(n)`, and `test(name, fn, n)` / `beforeAll(fn, n)` in every form. */
function limitsIn(file: string, text = readFileSync(file, "utf8")): Array<{ at: string; ms: number }> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Array<{ at: string; ms: number }> = [];
  const at = (node: ts.Node) =>
    `${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      const last = node.arguments.at(-1);
      const ms = last && numeric(last);
      if (callee === "jest.setTimeout" && last) found.push({ at: at(node), ms: ms ?? Number.NaN });
      else if (
        ms !== undefined &&
        LIMITED.test(callee) &&
        node.arguments.some((arg) => ts.isArrowFunction(arg) || ts.isFunctionExpression(arg))
      )
        found.push({ at: at(node), ms });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test("the suite's one limit only catches a hang", () => {
  expect(config.testTimeout).toBeGreaterThanOrEqual(HANG_ONLY_MS);
  for (const project of config.projects)
    expect([project.displayName, project.testTimeout]).toEqual([project.displayName, undefined]);
});

test("no test or hook under test/ sets a lower limit", () => {
  const limits = files(join(ROOT, "test")).flatMap((file) => limitsIn(file));
  expect(limits.filter(({ ms }) => !(ms >= config.testTimeout))).toEqual([]);
});

test("it finds a limit in each form a test can set one", () => {
  const probe = join(ROOT, "test/docs/timeLimits.probe.ts");
  const text = [
    "jest.setTimeout(120_000);",
    "beforeAll(async () => {}, 60_000);",
    'test("t", () => {}, 30 * 1000);',
    '(ok ? test : test.skip)("t", async () => {}, 150_000);',
    'test.each([1])("t %i", async () => {}, 5000);',
  ].join("\n");
  expect(limitsIn(probe, text).map(({ ms }) => ms)).toEqual([120_000, 60_000, 30_000, 150_000, 5000]);
});
