// What docs/troubleshooting.md ("Downloading the plugin") quotes of a failed plugin download, as the
// real CLI prints it: `pulumi plugin install` from an HTTP server that answers 404, then 403.
// GitHub cannot be reached here; the page's GitHub lines come from the same code (the CLI's
// workspace/plugins.go), with GitHub's address and hint.
import { mkdtempSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { read } from "../docs/markdown";
import { useE2E } from "./harness";

const e2e = useE2E();
const VERSION: string = require("../../package.json").version;
/** The archive's <os>-<arch> for this machine, as the CLI names it. */
const platform = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch === "arm64" ? "arm64" : "amd64"}`;

let server: Server;
let status = 404;
const asked: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    res.writeHead(status).end();
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
});
afterAll(() => new Promise((closed) => server.close(closed)));

test.each([404, 403])("a %s: the line the page quotes, and no second try", async (answer) => {
  status = answer;
  asked.length = 0;
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hosting`;
  // A Pulumi home without the plugin (the suite's has it installed).
  const home = mkdtempSync(join(e2e.work, "home-"));
  const ran = await e2e.cli(["plugin", "install", "resource", "hosting", VERSION, "--server", base], {
    env: { PULUMI_HOME: home },
  });
  expect(ran.code).not.toBe(0);
  const [quoted] = /^error: \[resource plugin hosting-.*$/m.exec(read("docs/troubleshooting.md"))!;
  const expected = quoted
    .replaceAll("https://plugins.example.com/hosting", base)
    .replaceAll("0.2.0", VERSION)
    .replace("404", String(answer))
    .replace("linux-amd64", platform);
  expect(ran.stderr).toContain(expected);
  expect(asked).toEqual([`GET /hosting/pulumi-resource-hosting-v${VERSION}-${platform}.tar.gz`]);
});
