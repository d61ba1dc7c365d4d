// Every secret the provider has been sent or has made in this process (the token, secret inputs,
// secret outputs such as a database's connection string or a link's injected variables), and the
// one way a text leaves the provider: with each of them blanked out. Errors, partial-failure
// reasons, engine log messages and stderr all go through `redact`.

/** Shorter values are not blanked: they would blank ordinary words of the text around them. */
export const MIN_SECRET_LENGTH = 6;

/** What a text that could not be checked for secrets becomes: never the text itself. */
export const WITHHELD = "[a message was withheld: it could not be checked for secrets]";

/**
 * Aho–Corasick over UTF-16 code units: where any of the secrets occurs in a text, in time linear
 * in the text and the secrets, with no limit on their size (one regular expression of them all
 * failed past 32,768 characters, "Regular expression too large"). Home-made, in a few lines: the
 * npm matchers (modern-ahocorasick and its kin) match whole grapheme clusters, and would miss a
 * secret that ends inside one (a combining mark after it), which redaction must not.
 */
export class SecretMatcher {
  /** Per state: its transitions by code unit. State 0 is the root. */
  private readonly next: Array<Map<number, number>> = [new Map()];
  /** Per state: where the longest proper suffix of its string that is also in the trie leads. */
  private fail: Int32Array = new Int32Array(1);
  /** Per state: the length of the longest secret that ends its string (0: none). */
  private longest: Int32Array = new Int32Array(1);

  constructor(secrets: Iterable<string>) {
    const ends = [0];
    for (const secret of secrets) {
      let state = 0;
      for (let i = 0; i < secret.length; i++) {
        const unit = secret.charCodeAt(i);
        let to = this.next[state].get(unit);
        if (to === undefined) {
          to = this.next.length;
          this.next.push(new Map());
          ends.push(0);
          this.next[state].set(unit, to);
        }
        state = to;
      }
      ends[state] = Math.max(ends[state], secret.length);
    }
    this.fail = new Int32Array(this.next.length);
    this.longest = Int32Array.from(ends);
    // Breadth first, so that a state's fail state is done before it.
    const queue: number[] = [...this.next[0].values()];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      this.longest[state] = Math.max(this.longest[state], this.longest[this.fail[state]]);
      for (const [unit, to] of this.next[state]) {
        this.fail[to] = this.step(this.fail[state], unit);
        queue.push(to);
      }
    }
  }

  private step(state: number, unit: number): number {
    for (;;) {
      const to = this.next[state].get(unit);
      if (to !== undefined) return to;
      if (state === 0) return 0;
      state = this.fail[state];
    }
  }

  /** The [start, end) ranges of the text that are part of a secret, merged, in order. */
  ranges(text: string): Array<[number, number]> {
    const ranges: Array<[number, number]> = [];
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = this.step(state, text.charCodeAt(i));
      const length = this.longest[state];
      if (length === 0) continue;
      let start = i + 1 - length;
      // A later match may begin before those already found: it swallows them (each range is merged once).
      while (ranges.length > 0 && ranges[ranges.length - 1][1] >= start) start = Math.min(start, ranges.pop()![0]);
      ranges.push([start, i + 1]);
    }
    return ranges;
  }
}

export class Secrets {
  private readonly known = new Set<string>();
  private matcher?: SecretMatcher;

  learn(values: Iterable<string>): void {
    for (const value of values) {
      if (value.length < MIN_SECRET_LENGTH || this.known.has(value)) continue;
      this.known.add(value);
      this.matcher = undefined;
    }
  }

  /**
   * The text with every known secret replaced by `[secret]` (secrets that overlap or touch, by one).
   * It fails closed: a text that cannot be checked is withheld, never sent as it is.
   */
  redact(text: string): string {
    if (this.known.size === 0) return text;
    try {
      this.matcher ??= new SecretMatcher(this.known);
      let redacted = "";
      let from = 0;
      for (const [start, end] of this.matcher.ranges(text)) {
        redacted += `${text.slice(from, start)}[secret]`;
        from = end;
      }
      return redacted + text.slice(from);
    } catch {
      return WITHHELD;
    }
  }
}
