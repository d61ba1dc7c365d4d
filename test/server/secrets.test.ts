// The one redaction every text the provider says goes through (server/secrets.ts).
import { MIN_SECRET_LENGTH, Secrets } from "../../provider/src/server/secrets";

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
