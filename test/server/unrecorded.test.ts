// What a create the engine never heard the end of keeps for the next run (provider/src/server/unrecorded.ts): one
// file per provider id and URN, read once per process, forgotten by URN or by id.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UnrecordedCreates, unrecordedFolder } from "../../provider/src/server/unrecorded";

const URN = "urn:pulumi:dev::app::hosting:index:Volume::data";
const PROVIDER = "6b0a4b8e-2f3c-4d7e-9a1b-0c5d8e7f6a21";
let home: string;
let folder: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "hosting-unrecorded-unit-"));
  folder = unrecordedFolder({ PULUMI_HOME: home });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

test("the folder is PULUMI_HOME's, or ~/.pulumi's", () => {
  expect(folder).toBe(join(home, "hosting", "unrecorded"));
  expect(unrecordedFolder({})).toMatch(/\.pulumi\/hosting\/unrecorded$/);
});

test("an entry kept is found by the next process under the same provider id and URN, and by no other", () => {
  new UnrecordedCreates(folder).keep({ providerId: PROVIDER, urn: URN, id: "v-1", name: "data-1a2b3c4" });
  const next = new UnrecordedCreates(folder);
  expect(next.find(PROVIDER, URN)).toMatchObject({ id: "v-1", name: "data-1a2b3c4", urn: URN, providerId: PROVIDER });
  expect(next.find("another-provider", URN)).toBeUndefined();
  expect(next.find(PROVIDER, `${URN}2`)).toBeUndefined();
  expect(readdirSync(folder)).toHaveLength(1); // no temporary file left
});

test.each([
  ["by URN (the engine was told)", (store: UnrecordedCreates) => store.forget(PROVIDER, URN)],
  ["by id (a call shows the engine holds it)", (store: UnrecordedCreates) => store.forgetId("v-1")],
])("an entry forgotten %s is gone for the next process too", (_how, forget) => {
  const store = new UnrecordedCreates(folder);
  store.keep({ providerId: PROVIDER, urn: URN, id: "v-1", name: "data-1a2b3c4" });
  forget(store);
  expect(store.find(PROVIDER, URN)).toBeUndefined();
  expect(new UnrecordedCreates(folder).find(PROVIDER, URN)).toBeUndefined();
  expect(readdirSync(folder)).toEqual([]);
});

test("a file that is not an entry, or not the entry its name says, is left alone and never taken", () => {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "broken.json"), "{not json");
  const store = new UnrecordedCreates(folder);
  store.keep({ providerId: PROVIDER, urn: URN, id: "v-1" });
  const [kept] = readdirSync(folder).filter((f) => f !== "broken.json");
  // Another URN's content under this URN's file name: not this URN's entry.
  writeFileSync(join(folder, kept), JSON.stringify({ providerId: PROVIDER, urn: "urn:other", id: "v-2" }));
  const lines: string[] = [];
  const next = new UnrecordedCreates(folder, (line) => lines.push(line));
  expect(next.find(PROVIDER, URN)).toBeUndefined();
  expect(lines).toEqual([expect.stringMatching(/^unrecorded creates: broken\.json is not readable \(/)]);
});

test("a folder that cannot be written loses the entry, says why, and throws nothing", () => {
  if (process.getuid?.() === 0) {
    // root writes anywhere: a file where the folder should be stands in for a folder it may not write.
    mkdirSync(join(home, "hosting"), { recursive: true });
    writeFileSync(folder, "");
  } else {
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o500);
  }
  const lines: string[] = [];
  const store = new UnrecordedCreates(folder, (line) => lines.push(line));
  expect(() => store.keep({ providerId: PROVIDER, urn: URN, id: "v-1" })).not.toThrow();
  expect(lines).toEqual([expect.stringMatching(new RegExp(`^unrecorded creates: could not keep ${URN} \\(v-1\\): `))]);
});
