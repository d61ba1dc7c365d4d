// The one redaction every text the provider says goes through (server/secrets.ts).
import { MIN_SECRET_LENGTH, Secrets, WITHHELD } from "../../provider/src/server/secrets";

test("every secret learned is blanked, wherever it stands, the longest first", () => {
  const secrets = new Secrets();
  secrets.learn(["hunter2-password", "postgres://app:s3cret@db:5432/app", "s3cret@db"]);
  expect(secrets.redact("login with hunter2-password failed; url postgres://app:s3cret@db:5432/app; s3cret@db")).toBe(
    "login with [secret] failed; url [secret]; [secret]",
  );
});

test("values that would blank ordinary words are not learned", () => {
  const secrets = new Secrets();
  secrets.learn(["info", "x".repeat(MIN_SECRET_LENGTH - 1)]);
  expect(secrets.redact("information, xxxxx")).toBe("information, xxxxx");
});

test("characters that mean something in a pattern are taken as they are", () => {
  const secrets = new Secrets();
  secrets.learn(["a.b*c(d)[e]$^"]);
  expect(secrets.redact("x a.b*c(d)[e]$^ y aXbbc")).toBe("x [secret] y aXbbc");
});

test("nothing learned: the text is as it was", () => {
  expect(new Secrets().redact("text")).toBe("text");
});

test("secrets of any size: a 40 KB connection string and a 1 MB token are blanked, and the time stays linear", () => {
  const secrets = new Secrets();
  const url = `postgres://app:${"p".repeat(40_000)}@db:5432/app`;
  const token = "t".repeat(1 << 20);
  secrets.learn([url, token, "hunter2-password"]);
  const text = `connect ${url} with ${token}; then hunter2-password`;
  expect(secrets.redact(text)).toBe("connect [secret] with [secret]; then [secret]");
  // 10 MB of text with no secret in it: one pass, in well under a second on any machine.
  const started = performance.now();
  expect(secrets.redact("q".repeat(10 << 20)).length).toBe(10 << 20);
  expect(performance.now() - started).toBeLessThan(5000);
});

test("overlapping and touching secrets blank everything any of them covers", () => {
  const secrets = new Secrets();
  secrets.learn(["abcdef", "defghi", "ghijkl"]);
  expect(secrets.redact("xxabcdefghijklyy")).toBe("xx[secret]yy");
  expect(secrets.redact("xxabcdefyy defghi")).toBe("xx[secret]yy [secret]");
});

test("a secret followed by a combining mark is still blanked (code units, not grapheme clusters)", () => {
  const secrets = new Secrets();
  secrets.learn(["hunter2-password"]);
  expect(secrets.redact("hunter2-password\u0301 and \u{1F600}hunter2-password")).toBe(
    "[secret]\u0301 and \u{1F600}[secret]",
  );
});

test("it fails closed: a text that cannot be checked is withheld, never sent as it is", () => {
  const secrets = new Secrets();
  secrets.learn(["hunter2-password"]);
  // A text whose reading throws half way: whatever went wrong, none of it goes out.
  const text = {
    slice: () => "hunter2-password",
    get length(): number {
      throw new Error("unreadable");
    },
  } as unknown as string;
  expect(secrets.redact(text)).toBe(WITHHELD);
});
