// The one redaction and the one size bound of everything the provider says (provider/src/redact.ts).
import {
  blankQuoted,
  MARKER,
  MESSAGE_LIMIT_BYTES,
  RUN_LENGTH,
  Secrets,
  WITHHELD,
  bounded,
  redact,
  ruleFor,
} from "../provider/src/redact";

const LONG = "sk_live_7QmZ2x9KfP0aLr4TnW8yVb3HcJ6dE1gU5sN0oXqRtYzAiBpCuDvFwGhIjKlMnOpQrStUvWxYz0123456789abcdef";
const redacting = (...values: string[]) => new Secrets(values);

describe("which secrets are looked for, and how", () => {
  test.each([
    ["too short to hide: blanking it would blank pieces of words", "abc12", "ignored"],
    ["a plain word: blanking it shows it by position", "container", "ignored"],
    ["a capitalised word", "Projects", "ignored"],
    ["a word in capitals", "PRODUCTION", "ignored"],
    ["a word in a caseless script", "パスワードです", "ignored"],
    ["a word with a digit is no word", "hunter2", "whole"],
    ["mixed case is no word", "XkQmPzRt", "whole"],
    ["two words are a passphrase", "first-secret-pw", "whole"],
    ["a connection string's fragment", "s3cret@db", "whole"],
    [`${RUN_LENGTH} characters: any run of ${RUN_LENGTH} from it`, "hunter2-password", "runs"],
    ["a long word is treated as any long secret", "internationalization", "runs"],
  ])("%s: %j is %s", (_why, secret, rule) => {
    expect(ruleFor(secret)).toBe(rule);
  });
});

describe("what is blanked", () => {
  test.each([
    ["a whole long secret", [LONG], `token ${LONG} refused`, `token ${MARKER} refused`],
    [
      "the first 64 characters of a long secret",
      [LONG],
      `value '${LONG.slice(0, 64)}…' is too long`,
      `value '${MARKER}…' is too long`,
    ],
    ["24 characters from its middle", [LONG], `near "${LONG.slice(30, 54)}"`, `near "${MARKER}"`],
    ["exactly the run length", [LONG], `x${LONG.slice(5, 5 + RUN_LENGTH)}y`, `x${MARKER}y`],
    [
      "one character under the run length stays",
      [LONG],
      `x${LONG.slice(5, 4 + RUN_LENGTH)}y`,
      `x${LONG.slice(5, 4 + RUN_LENGTH)}y`,
    ],
    [
      "a short secret, whole, wherever it stands",
      ["hunter2"],
      "pw hunter2, again xhunter2y",
      `pw ${MARKER}, again x${MARKER}y`,
    ],
    ["a short secret's part is not it", ["hunter2"], "hunter and unter2", "hunter and unter2"],
    [
      "plain-word secrets are left where the text uses the word",
      ["container", "projects"],
      "the container is busy in projects",
      "the container is busy in projects",
    ],
    ["values too short to hide", ["abc12"], "abc12 abc123", "abc12 abc123"],
    [
      "characters that mean something in a pattern",
      ["a.b*c(d)[e]$^"],
      "x a.b*c(d)[e]$^ y aXbbc",
      `x ${MARKER} y aXbbc`,
    ],
    [
      "overlapping and touching secrets: one marker",
      ["abcdef1", "ef1ghij", "ghij2kl"],
      "xxabcdef1ghij2klyy",
      `xx${MARKER}yy`,
    ],
    ["a secret inside a longer one's run", [LONG, "hunter2"], `${LONG.slice(0, 20)}hunter2`, MARKER],
    [
      "a secret followed by a combining mark (code units, not graphemes)",
      ["hunter2-password"],
      "hunter2-password\u0301 and \u{1F600}hunter2-password",
      `${MARKER}\u0301 and \u{1F600}${MARKER}`,
    ],
    ["nothing known: the text as it was", [], "text", "text"],
  ])("%s", (_what, secrets, text, expected) => {
    expect(redacting(...secrets).redact(text)).toBe(expected);
  });

  test.each([
    ["sent NFC, echoed NFD", "Zürich-Passwort-Ökonomie-2024".normalize("NFC"), "NFD"],
    ["sent NFD, echoed NFC", "Zürich-Passwort-Ökonomie-2024".normalize("NFD"), "NFC"],
    ["a short one, sent NFC, echoed NFD", "pässwörd1".normalize("NFC"), "NFD"],
  ] as const)("a non-ASCII secret %s is found", (_how, secret, echoed) => {
    const secrets = redacting(secret);
    expect(secrets.redact(`said ${secret.normalize(echoed)}.`)).toBe(`said ${MARKER}.`);
    if (secret.length >= RUN_LENGTH)
      expect(secrets.redact(`said ${secret.normalize(echoed).slice(2, 22)}.`)).toBe(`said ${MARKER}.`);
  });

  test("a run that starts or ends inside a surrogate pair blanks the whole pair", () => {
    const secret = "\u{1F511}".repeat(12); // 24 code units
    const secrets = redacting(secret);
    expect(secrets.redact(`<${secret.slice(0, 20)}>`)).toBe(`<${MARKER}>`);
    // A run from the key's second half, after another character's first half, and the reverse.
    expect(secrets.redact(`<\ud83c${secret.slice(1, 20)}>`)).toBe(`<${MARKER}>`);
    expect(secrets.redact(`<${secret.slice(0, 19)}\udd12>`)).toBe(`<${MARKER}>`);
  });

  test("the one-off form, as the API client uses it with its token", () => {
    expect(redact(`Bearer ${LONG}`, [LONG])).toBe(`Bearer ${MARKER}`);
  });
});

describe("the rule against a reference that tries every substring", () => {
  // Secrets and texts over three letters (many repeats, so many shared runs and overlaps), compared
  // with what a brute force blanks: every position inside a run of RUN_LENGTH or more taken from a
  // long secret, or inside a whole short secret.
  const random = seeded(7);
  const word = (length: number) => Array.from({ length }, () => "abc"[Math.floor(random() * 3)]).join("");

  function reference(secrets: string[], text: string): string {
    const covered = new Array<boolean>(text.length).fill(false);
    for (let start = 0; start < text.length; start++) {
      for (let end = start + 1; end <= text.length; end++) {
        const piece = text.slice(start, end);
        const blank =
          (piece.length >= RUN_LENGTH && secrets.some((s) => s.length >= RUN_LENGTH && s.includes(piece))) ||
          secrets.some((s) => s.length < RUN_LENGTH && s === piece && ruleFor(s) === "whole");
        if (blank) covered.fill(true, start, end);
      }
    }
    return text.replace(/./gs, (c, i) => (covered[i] ? "\0" : c)).replace(/\0+/g, MARKER);
  }

  test.each(Array.from({ length: 40 }, (_, i) => i))("case %i", () => {
    // Mixed case, so that the short ones are not plain words; enough of them that the arrays grow.
    const secrets = Array.from(
      { length: 1 + Math.floor(random() * 8) },
      () => `${word(6 + Math.floor(random() * 60))}X`,
    );
    const pieces = Array.from({ length: 12 }, () => {
      const from = secrets[Math.floor(random() * secrets.length)];
      const start = Math.floor(random() * from.length);
      return random() < 0.5
        ? from.slice(start, start + 5 + Math.floor(random() * 25))
        : word(1 + Math.floor(random() * 6));
    });
    const text = pieces.join("");
    expect(redacting(...secrets).redact(text)).toBe(reference(secrets, text));
  });
});

describe("it fails closed", () => {
  test("a text that cannot be read is withheld, never sent as it is", () => {
    const text = {
      slice: () => "hunter2-password",
      get length(): number {
        throw new Error("unreadable");
      },
    } as unknown as string;
    expect(redacting("hunter2-password").redact(text)).toBe(WITHHELD);
    expect(redacting("hunter2-password").say(text)).toBe(WITHHELD);
  });

  describe("a secret past the budget is not forgotten: a text that may hold it is withheld, and only such a text", () => {
    // A budget of 1,000 code units, for speed (jest's sandbox makes typed arrays slow): SECRET_BUDGET's rule.
    const random = seeded(5);
    const oversized = Array.from({ length: 200_000 }, () => String.fromCharCode(33 + Math.floor(random() * 94))).join(
      "",
    );
    const secrets = new Secrets(["hunter2-password"], 1_000);
    secrets.learn([oversized]);

    test("an unrelated text is said as it is, the secrets that fit still blanked", () => {
      // It used to withhold every later message: one 5 MB secret made every Check failure unreadable.
      expect(secrets.say("image: not an image reference")).toBe("image: not an image reference");
      expect(secrets.say("the password hunter2-password was refused")).toBe(`the password ${MARKER} was refused`);
    });

    test.each([0, 1, 7, 8, 9, 100_003, oversized.length - RUN_LENGTH])(
      "its run of RUN_LENGTH code units from %i withholds a text that holds it; one code unit less does not",
      (start) => {
        const run = oversized.slice(start, start + RUN_LENGTH);
        expect(secrets.redact(`echoed: ${run}.`)).toBe(WITHHELD);
        expect(secrets.redact(`echoed: ${run.slice(1)}.`)).not.toBe(WITHHELD); // one short of a run
      },
    );

    test("a short secret that comes when the budget is full is looked for whole", () => {
      const full = new Secrets(["hunter2-password"], 20); // full once it holds hunter2-password
      full.learn(["s3cret@db"]);
      expect(full.redact("hunter2-password")).toBe(MARKER);
      expect(full.redact("connect to s3cret@db now")).toBe(WITHHELD);
      expect(full.redact("connect to s3cret now")).toBe("connect to s3cret now");
    });

    test("a secret that still fits is blanked as before", () => {
      secrets.learn(["another-long-secret"]);
      expect(secrets.redact("use another-long-secret")).toBe(`use ${MARKER}`);
    });
  });
});

test("secrets of any size: a 40 KB connection string, a 64 KB random token and a 1 MB one, in 1 MB of text", () => {
  // (The index's speed and memory are measured in plain Node.js, not here: jest's sandbox makes typed arrays slow.)
  const url = `postgres://app:${"p".repeat(40_000)}@db:5432/app`;
  const random = seeded(11);
  const token = Array.from({ length: 1 << 16 }, () => String.fromCharCode(33 + Math.floor(random() * 94))).join("");
  const huge = "t".repeat(1 << 20);
  const secrets = redacting(url, token, huge, "hunter2-password");
  expect(secrets.redact(`connect ${url} with ${token} or ${huge}; then hunter2-password`)).toBe(
    `connect ${MARKER} with ${MARKER} or ${MARKER}; then ${MARKER}`,
  );
  expect(secrets.redact(`a slice: ${token.slice(30_000, 30_100)}.`)).toBe(`a slice: ${MARKER}.`);
  const plain = "q".repeat(1 << 20);
  expect(secrets.redact(plain)).toBe(plain);
});

describe("bounded: what fits on the wire", () => {
  test("a message within the limit is as it was", () => {
    const text = "x".repeat(MESSAGE_LIMIT_BYTES);
    expect(bounded(text)).toBe(text);
  });

  test.each([64 * 1024, 1024 * 1024, 16 * 1024 * 1024])(
    "%i bytes: the head and the tail (status, request id), and how much was cut",
    (size) => {
      const tail = " (HTTP 400, request req-123)";
      const text = `BAD_REQUEST: name ${"n".repeat(size - 46)}${tail}`;
      const cut = bounded(text);
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(MESSAGE_LIMIT_BYTES);
      expect(cut.startsWith("BAD_REQUEST: name nnn")).toBe(true);
      expect(cut.endsWith(tail)).toBe(true);
      const left = Number(
        /\[…cut: ([\d,]+) bytes left out \(a message is limited to 8 KiB\)…\]/.exec(cut)![1].replaceAll(",", ""),
      );
      expect(left).toBe(Buffer.byteLength(text) - Buffer.byteLength(cut.replace(/ \[…cut: .*?…\] /, "")));
    },
  );

  test("characters of several bytes are counted as bytes, and a pair is never split", () => {
    const text = `${"é\u{1F600}".repeat(10_000)}`;
    const cut = bounded(text);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(MESSAGE_LIMIT_BYTES);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  test("say: redacted first, then cut, so a secret across the cut is blanked whole, and no marker is split", () => {
    const head = bounded("h".repeat(100_000)).indexOf(" […cut");
    const text = `${"h".repeat(head - 3)}hunter2${"h".repeat(100_000)}`;
    expect(bounded(text)).toContain("hhhun […cut"); // what cutting first would show
    const said = redacting("hunter2").say(text);
    expect(Buffer.byteLength(said)).toBeLessThanOrEqual(MESSAGE_LIMIT_BYTES);
    expect(said).not.toMatch(/hun|ter2|\[se(?!cret\])/);
    expect(said).toMatch(/^h+ \[…cut: [\d,]+ bytes left out/);
  });
});

/** A small deterministic generator (mulberry32), so that a failing case can be run again. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("blankQuoted: values known to be secret, quoted by a message (a Check failure)", () => {
  test("each blanked wherever it appears whole, at any length, longest first", () => {
    expect(blankQuoted('password "abc" is too short; "abcdef" too', ["abc", "abcdef", ""])).toBe(
      'password "[secret]" is too short; "[secret]" too',
    );
  });
});
