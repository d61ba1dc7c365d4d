// The one redaction of everything the provider says, and the one bound on its size. The API client
// (api/errors.ts: errors built from API answers, request traces) and the gRPC server (server/: every
// status, partial-failure reason, Check failure, engine log line and stderr line) both use it; it
// imports nothing, so it sits below both.
//
// The rule, by the secret's length in UTF-16 code units (its NFC form):
// - shorter than MIN_SECRET_LENGTH: never blanked. It would blank pieces of ordinary words, and
//   protects nothing: so short a value is guessed faster than it is hidden.
// - shorter than RUN_LENGTH and a single word (letters only, all in one case or capitalised:
//   `container`, `Projects`): never blanked. Such values are the secret maps' plain settings
//   (`NODE_ENV: production`), and blanking one wherever the word appears tells the reader what it
//   is (`the [secret] is busy in [secret]`), while a dictionary finds it at once anyway. The cost:
//   an API that echoes such a value shows it.
// - shorter than RUN_LENGTH otherwise (`hunter2`, `s3cret@db`): blanked wherever it appears whole.
// - RUN_LENGTH or longer: every run of RUN_LENGTH or more characters taken from it is blanked, not
//   only the whole secret: APIs quote the first 64 characters of a long value, or a slice of it.
// Each secret is looked for in NFC and in NFD alike (an API may echo either form).
//
// The index holds at most SECRET_BUDGET code units. A secret past it is not forgotten: a text that
// may hold it (a run of it, or the whole of a short one) is withheld, and only such a text. One
// oversized input (a 5 MB secret, which Check refuses anyway) used to withhold every later message.

/** What stands in a text where a secret was: one marker for every secret, the token included. */
export const MARKER = "[secret]";

/** What a text becomes when it cannot be checked for secrets: never the text itself. */
export const WITHHELD = "[a message was withheld: it could not be checked for secrets]";

/** Secrets shorter than this (UTF-16 code units) are never blanked. */
export const MIN_SECRET_LENGTH = 6;

/** Secrets this long or longer are blanked wherever this many of their characters in a row appear. */
export const RUN_LENGTH = 16;

/**
 * How many code units of secrets (each in its NFC and NFD forms) the index holds at most, about
 * 50 bytes each. A secret past it is kept aside (`Overflow`, about 3 bytes a code unit) and a text
 * that may hold it is withheld: the provider fails closed rather than forget a secret.
 */
export const SECRET_BUDGET = 4 * 1024 * 1024;

/**
 * The most a message may take on the wire, in UTF-8 bytes, the cut's note included. A gRPC status
 * travels in HTTP/2 trailers, its message percent-encoded (up to 3 bytes a byte: under 24 KiB) and
 * again in the status details, with a partial failure's reason and state (held to 40 KiB in all by
 * server/errors.ts), inside the ~64 KiB per field past which Node.js never sends the trailers and
 * the engine waits for ever (measured: grpc-js 1.14, Node.js 20). A failed rollout's message with
 * its 4 KiB log tail fits whole.
 */
export const MESSAGE_LIMIT_BYTES = 8 * 1024;

/** How a secret is looked for: not at all, where it appears whole, or wherever a run of it appears. */
export type Rule = "ignored" | "whole" | "runs";

export function ruleFor(secret: string): Rule {
  const text = secret.normalize("NFC");
  if (text.length < MIN_SECRET_LENGTH) return "ignored";
  if (text.length >= RUN_LENGTH) return "runs";
  return isWord(text) ? "ignored" : "whole";
}

/** Letters only (with their combining marks), in one case or capitalised. */
function isWord(text: string): boolean {
  if (!/^[\p{L}\p{M}]+$/u.test(text)) return false;
  const tail = [...text].slice(1).join("");
  return text === text.toUpperCase() || tail === tail.toLowerCase();
}

/** The secret as sent, and in the forms an API may echo it in. */
const formsOf = (secret: string) => [...new Set([secret, secret.normalize("NFC"), secret.normalize("NFD")])];

/**
 * A generalized suffix automaton over every secret form: its states are the substrings of the
 * secrets, so one pass over a text, one step a code unit, finds at each position the longest run
 * ending there that is taken from a secret (`scan`). Whole short secrets are marked on the states
 * that hold them (`whole`, a bit per length), found by the same pass.
 *
 * Home-made because no npm package does this. npm has no maintained suffix-automaton package;
 * the suffix arrays (mnemonist's SuffixArray and GeneralizedSuffixArray) give the sorted suffixes
 * of the strings they were built from and their longest common subsequence, and match no other
 * text against them. The multi-pattern matchers (modern-ahocorasick,
 * @monyone/aho-corasick, ahocorasick and their kin) find whole patterns only, so a partial echo
 * would need every 16-character window of every secret as a pattern (16 times the memory), and
 * modern-ahocorasick builds its patterns by code point (`for…of`) but reads a text by code unit
 * (`str[i]`), so it never finds a secret that holds a character outside the Basic Multilingual
 * Plane (an emoji), and does not normalize. Of the redactors,
 * fast-redact and @pinojs/redact blank object paths, not values inside text; @zapier/secret-scrubber
 * does blank known values in text, but whole only, one replaceAll pass per secret (time in text
 * times secrets), and its marker (`:censored:20:7991f05acc:`) tells the secret's length and a
 * hash prefix to test guesses against.
 *
 * Transitions live in typed arrays (a list per state, and a hash table from state and code unit
 * to edge) rather than a Map per state: a 1 MB secret makes a million states or more, and a Map
 * each would cost several times the ~50 bytes per code unit these take.
 */
class SecretIndex {
  private states = 1;
  /** Per state: the length of its longest string; its suffix link (-1 for the root); its first edge. */
  private len = new Int32Array(64);
  private link = new Int32Array(64).fill(-1, 0, 1);
  private first = new Int32Array(64).fill(-1);
  /** Per state: bit n set when its string of length n is a whole short secret. */
  private whole = new Uint16Array(64);
  private edges = 0;
  private edgeFrom = new Int32Array(64);
  private edgeUnit = new Uint16Array(64);
  private edgeTo = new Int32Array(64);
  private edgeNext = new Int32Array(64);
  /** Open addressing: edge index + 1, 0 for an empty slot; never more than half full. */
  private slots = new Int32Array(128);

  add(secret: string, whole: boolean): void {
    let last = 0;
    for (let i = 0; i < secret.length; i++) last = this.extend(last, secret.charCodeAt(i));
    if (whole && secret.length < RUN_LENGTH) this.whole[last] |= 1 << secret.length;
  }

  /**
   * The [start, end) ranges of the text to blank, flat and merged, in order: every run of
   * RUN_LENGTH or more taken from a secret, and every whole short secret.
   */
  scan(text: string): number[] {
    const ranges: number[] = [];
    let state = 0;
    let matched = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      let edge = this.find(state, unit);
      while (edge < 0 && state !== 0) {
        state = this.link[state];
        matched = this.len[state];
        edge = this.find(state, unit);
      }
      if (edge < 0) {
        matched = 0;
        continue;
      }
      state = this.edgeTo[edge];
      matched++;
      const length = matched >= RUN_LENGTH ? matched : this.longestWhole(state, matched);
      if (length === 0) continue;
      let start = i + 1 - length;
      // A whole secret may begin before the ranges already found: it swallows them.
      while (ranges.length > 0 && ranges[ranges.length - 1] >= start) {
        ranges.pop();
        start = Math.min(start, ranges.pop()!);
      }
      ranges.push(start, i + 1);
    }
    return ranges;
  }

  /**
   * The longest whole short secret that ends the match (its last `matched` code units, in
   * `state`): the state's own strings up to that length, then the shorter ones down its suffix
   * links (few: a match shorter than RUN_LENGTH has fewer than RUN_LENGTH lengths to try).
   */
  private longestWhole(state: number, matched: number): number {
    if (matched < MIN_SECRET_LENGTH) return 0;
    const own = this.whole[state] & upTo(matched);
    if (own !== 0) return 31 - Math.clz32(own);
    for (let s = this.link[state]; s > 0 && this.len[s] >= MIN_SECRET_LENGTH; s = this.link[s])
      if (this.whole[s] !== 0) return 31 - Math.clz32(this.whole[s]);
    return 0;
  }

  /** The standard online construction, extended to many strings (`last` is 0 at each one's start). */
  private extend(last: number, unit: number): number {
    const existing = this.find(last, unit);
    if (existing >= 0) {
      const q = this.edgeTo[existing];
      return this.len[last] + 1 === this.len[q] ? q : this.split(last, unit, q);
    }
    const created = this.newState(this.len[last] + 1);
    let p = last;
    while (p !== -1 && this.find(p, unit) < 0) {
      this.addEdge(p, unit, created);
      p = this.link[p];
    }
    if (p === -1) {
      this.link[created] = 0;
      return created;
    }
    const q = this.edgeTo[this.find(p, unit)];
    // Split first: it may grow the arrays, and `this.link[created] = split()` would write to the old one.
    const suffix = this.len[p] + 1 === this.len[q] ? q : this.split(p, unit, q);
    this.link[created] = suffix;
    return created;
  }

  /** A copy of `q` that takes its strings up to `len[p] + 1`, to which `p` and its suffixes now lead on `unit`. */
  private split(p: number, unit: number, q: number): number {
    const clone = this.newState(this.len[p] + 1);
    this.link[clone] = this.link[q];
    for (let e = this.first[q]; e >= 0; e = this.edgeNext[e]) this.addEdge(clone, this.edgeUnit[e], this.edgeTo[e]);
    const shorter = this.whole[q] & upTo(this.len[clone]);
    this.whole[clone] = shorter;
    this.whole[q] ^= shorter;
    for (; p !== -1; p = this.link[p]) {
      const e = this.find(p, unit);
      if (e < 0 || this.edgeTo[e] !== q) break;
      this.edgeTo[e] = clone;
    }
    this.link[q] = clone;
    return clone;
  }

  private newState(length: number): number {
    const state = this.states++;
    if (state >= this.len.length) {
      const size = this.len.length * 2;
      this.len = grown(this.len, size);
      this.link = grown(this.link, size);
      this.first = grown(this.first, size).fill(-1, state);
      this.whole = grown(this.whole, size);
    }
    this.len[state] = length;
    this.first[state] = -1;
    return state;
  }

  private addEdge(from: number, unit: number, to: number): void {
    const edge = this.edges++;
    if (edge >= this.edgeTo.length) {
      const size = this.edgeTo.length * 2;
      this.edgeFrom = grown(this.edgeFrom, size);
      this.edgeUnit = grown(this.edgeUnit, size);
      this.edgeTo = grown(this.edgeTo, size);
      this.edgeNext = grown(this.edgeNext, size);
    }
    this.edgeFrom[edge] = from;
    this.edgeUnit[edge] = unit;
    this.edgeTo[edge] = to;
    this.edgeNext[edge] = this.first[from];
    this.first[from] = edge;
    if (this.edges * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(edge);
  }

  /** The edge from `state` on `unit`, or -1. */
  private find(state: number, unit: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash(state, unit) & mask; ; slot = (slot + 1) & mask) {
      const edge = this.slots[slot] - 1;
      if (edge < 0 || (this.edgeFrom[edge] === state && this.edgeUnit[edge] === unit)) return edge;
    }
  }

  private place(edge: number): void {
    const mask = this.slots.length - 1;
    let slot = hash(this.edgeFrom[edge], this.edgeUnit[edge]) & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = edge + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let edge = 0; edge < this.edges; edge++) this.place(edge);
  }
}

/** The length of the slices of a secret past the budget that are hashed: any run of RUN_LENGTH holds one whole. */
const SAMPLE = RUN_LENGTH / 2;

/**
 * The secrets past the budget, which the index does not hold: nothing blanks them, so a text that may hold one is
 * withheld. A short secret is looked for whole; a long one by its runs of RUN_LENGTH, through the hash of each of
 * its SAMPLE-long slices that start at a multiple of SAMPLE (every run of RUN_LENGTH of it holds one of them whole):
 * each slice of the text is hashed, and one that hashes alike is compared, then followed both ways, code unit by
 * code unit. Linear in the text; about 3 bytes a code unit of secret, where the index takes about 50.
 */
class Overflow {
  private readonly short: string[] = [];
  private readonly long: string[] = [];
  private entries = 0;
  /** Per sampled slice: the hash, which secret of `long`, where in it. */
  private entryHash = new Int32Array(64);
  private entryOf = new Int32Array(64);
  private entryAt = new Int32Array(64);
  /** Open addressing: entry index + 1, 0 for an empty slot; never more than half full. */
  private slots = new Int32Array(128);

  get empty(): boolean {
    return this.short.length === 0 && this.long.length === 0;
  }

  add(secret: string, whole: boolean): void {
    if (secret.length < RUN_LENGTH) {
      if (whole) this.short.push(secret);
      return;
    }
    const of = this.long.push(secret) - 1;
    for (let at = 0; at + SAMPLE <= secret.length; at += SAMPLE) this.addEntry(sliceHash(secret, at), of, at);
  }

  /** Whether the text holds a run of RUN_LENGTH of a long secret here, or a short one whole. */
  heldIn(text: string): boolean {
    if (this.short.some((secret) => text.includes(secret))) return true;
    if (this.long.length === 0) return false;
    const mask = this.slots.length - 1;
    for (let i = 0; i + SAMPLE <= text.length; i++) {
      const h = sliceHash(text, i);
      for (let slot = h & mask; this.slots[slot] !== 0; slot = (slot + 1) & mask) {
        const entry = this.slots[slot] - 1;
        if (this.entryHash[entry] === h && this.runAround(text, i, this.long[this.entryOf[entry]], this.entryAt[entry]))
          return true;
      }
    }
    return false;
  }

  /** Whether text at `i` and secret at `at` agree on SAMPLE code units, and on RUN_LENGTH with those around them. */
  private runAround(text: string, i: number, secret: string, at: number): boolean {
    for (let k = 0; k < SAMPLE; k++) if (text.charCodeAt(i + k) !== secret.charCodeAt(at + k)) return false;
    let before = 0;
    while (before < RUN_LENGTH && i - before > 0 && at - before > 0) {
      if (text.charCodeAt(i - before - 1) !== secret.charCodeAt(at - before - 1)) break;
      before++;
    }
    let after = 0;
    while (
      before + SAMPLE + after < RUN_LENGTH &&
      i + SAMPLE + after < text.length &&
      at + SAMPLE + after < secret.length
    ) {
      if (text.charCodeAt(i + SAMPLE + after) !== secret.charCodeAt(at + SAMPLE + after)) break;
      after++;
    }
    return before + SAMPLE + after >= RUN_LENGTH;
  }

  private addEntry(h: number, of: number, at: number): void {
    const entry = this.entries++;
    if (entry >= this.entryHash.length) {
      const size = this.entryHash.length * 2;
      this.entryHash = grown(this.entryHash, size);
      this.entryOf = grown(this.entryOf, size);
      this.entryAt = grown(this.entryAt, size);
    }
    this.entryHash[entry] = h;
    this.entryOf[entry] = of;
    this.entryAt[entry] = at;
    if (this.entries * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2);
      for (let e = 0; e < this.entries; e++) this.place(e);
    } else this.place(entry);
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let slot = this.entryHash[entry] & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = entry + 1;
  }
}

/** A hash of the SAMPLE code units of `text` from `at` (FNV-1a, then mixed). */
function sliceHash(text: string, at: number): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < SAMPLE; k++) h = Math.imul(h ^ text.charCodeAt(at + k), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

/** The bits of `whole` for lengths up to `length`. */
const upTo = (length: number) => (length >= RUN_LENGTH ? 0xffff : (2 << length) - 1);

function grown<T extends Int32Array | Uint16Array>(array: T, size: number): T {
  const bigger = new (array.constructor as new (size: number) => T)(size);
  bigger.set(array);
  return bigger;
}

function hash(state: number, unit: number): number {
  let h = Math.imul(state, 0x9e3779b1) ^ unit;
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

/** The text with each range replaced by the marker, a range never ending inside a surrogate pair. */
function blanked(text: string, ranges: number[]): string {
  let out = "";
  let from = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    let [start, end] = [ranges[r], ranges[r + 1]];
    if (isLowSurrogate(text, start) && isHighSurrogate(text, start - 1)) start--;
    if (isHighSurrogate(text, end - 1) && isLowSurrogate(text, end)) end++;
    // Widened to a whole pair, it may now touch the one before: one marker for both.
    if (r > 0 && start <= from) from = Math.max(from, end);
    else {
      out += text.slice(from, start) + MARKER;
      from = end;
    }
  }
  return out + text.slice(from);
}

const isHighSurrogate = (text: string, i: number) => i >= 0 && (text.charCodeAt(i) & 0xfc00) === 0xd800;
const isLowSurrogate = (text: string, i: number) => i < text.length && (text.charCodeAt(i) & 0xfc00) === 0xdc00;

/** Every secret the provider has been sent or has made in this process, and the texts it says without them. */
export class Secrets {
  private readonly index = new SecretIndex();
  /** The secrets that did not fit in the index's budget: a text that may hold one is withheld. */
  private readonly overflow = new Overflow();
  private readonly known = new Set<string>();
  /** Code units held by the index. */
  private held = 0;
  /** An index that failed half way: every text is withheld from then on. */
  private broken = false;

  /** `budget`: how many code units the index holds (SECRET_BUDGET; a test's smaller one). */
  constructor(
    values: Iterable<string> = [],
    private readonly budget = SECRET_BUDGET,
  ) {
    this.learn(values);
  }

  learn(values: Iterable<string>): void {
    try {
      for (const value of values) {
        if (this.broken || this.known.has(value)) continue;
        this.known.add(value);
        const rule = ruleFor(value);
        if (rule === "ignored") continue;
        for (const form of formsOf(value)) {
          if (this.held + form.length > this.budget) this.overflow.add(form, rule === "whole");
          else {
            this.held += form.length;
            this.index.add(form, rule === "whole");
          }
        }
      }
    } catch {
      this.broken = true;
    }
  }

  /**
   * The text with every known secret blanked (`MARKER`); fails closed: a text that cannot be checked, or that may hold
   * a secret past the budget, is withheld.
   */
  redact(text: string): string {
    if (this.broken) return WITHHELD;
    if (this.held === 0 && this.overflow.empty) return text;
    try {
      if (this.overflow.heldIn(text)) return WITHHELD;
      return this.held === 0 ? text : blanked(text, this.index.scan(text));
    } catch {
      return WITHHELD;
    }
  }

  /** What may leave the process: the text redacted, then bounded (`bounded`). */
  say(text: string): string {
    try {
      return bounded(this.redact(text));
    } catch {
      return WITHHELD;
    }
  }
}

/** The text with the secrets of `secrets` blanked, for a one-off list (the API client's token). */
export function redact(text: string, secrets: Iterable<string>): string {
  return new Secrets(secrets).redact(text);
}

/**
 * The text with each of `quoted` blanked wherever it appears whole, whatever its length: for a
 * message that quotes values known to be secret (a Check failure quoting the secret input it
 * refuses), where the position reveals nothing the message does not already say. Longest first, so
 * that a value inside another is not left half blanked.
 */
export function blankQuoted(text: string, quoted: Iterable<string>): string {
  return [...quoted]
    .filter((value) => value !== "")
    .sort((a, b) => b.length - a.length)
    .reduce((blanked, value) => blanked.split(value).join(MARKER), text);
}

/**
 * The text, or when it is longer than `limitBytes` of UTF-8, its head and its tail (where an API
 * error says its HTTP status and request id) with a note of how much was cut between them. Bound a
 * text only once it is redacted: a cut could split a secret into pieces too short to find.
 */
export function bounded(text: string, limitBytes = MESSAGE_LIMIT_BYTES): string {
  const total = Buffer.byteLength(text);
  if (total <= limitBytes) return text;
  const note = (left: number) =>
    ` […cut: ${left.toLocaleString("en")} bytes left out (a message is limited to ${limitBytes / 1024} KiB)…] `;
  const room = Math.max(0, limitBytes - Buffer.byteLength(note(total)));
  const head = offMarker(text, prefixWithin(text, Math.floor((room * 3) / 4)), "before");
  const tail = offMarker(text, suffixWithin(text, room - Buffer.byteLength(text.slice(0, head))), "after");
  const kept = Buffer.byteLength(text.slice(0, head)) + Buffer.byteLength(text.slice(tail));
  return text.slice(0, head) + note(total - kept) + text.slice(tail);
}

/** A cut at `at`, moved before or after the marker it would split, if any. */
function offMarker(text: string, at: number, side: "before" | "after"): number {
  for (let start = at - MARKER.length + 1; start < at; start++)
    if (text.startsWith(MARKER, start)) return side === "before" ? start : start + MARKER.length;
  return at;
}

/** UTF-8 bytes of the code point at `i` (a surrogate pair's first half counts for the pair). */
function bytesAt(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  return isHighSurrogate(text, i) && isLowSurrogate(text, i + 1) ? 4 : 3;
}

/** The end of the longest prefix within `bytes`, never inside a surrogate pair. */
function prefixWithin(text: string, bytes: number): number {
  let end = 0;
  for (let used = 0; end < text.length; ) {
    const size = bytesAt(text, end);
    if (used + size > bytes) break;
    used += size;
    end += size === 4 ? 2 : 1;
  }
  return end;
}

/** The start of the longest suffix within `bytes`, never inside a surrogate pair. */
function suffixWithin(text: string, bytes: number): number {
  let start = text.length;
  for (let used = 0; start > 0; ) {
    const pair = isLowSurrogate(text, start - 1) && isHighSurrogate(text, start - 2);
    const size = pair ? 4 : bytesAt(text, start - 1);
    if (used + size > bytes) break;
    used += size;
    start -= pair ? 2 : 1;
  }
  return start;
}
