// Every secret the provider has been sent or has made in this process (the token, secret inputs,
// secret outputs such as a database's connection string or a link's injected variables), and the
// one way a text leaves the provider: with each of them blanked out. Errors, partial-failure
// reasons, engine log messages and stderr all go through `redact`.

/** Shorter values are not blanked: they would blank ordinary words of the text around them. */
export const MIN_SECRET_LENGTH = 6;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class Secrets {
  private readonly known = new Set<string>();
  private pattern?: RegExp;

  learn(values: Iterable<string>): void {
    for (const value of values) {
      if (value.length < MIN_SECRET_LENGTH || this.known.has(value)) continue;
      this.known.add(value);
      this.pattern = undefined;
    }
  }

  /** The text with every known secret replaced by `[secret]` (the longest first, so that none shows in part). */
  redact(text: string): string {
    if (this.known.size === 0) return text;
    this.pattern ??= new RegExp([...this.known].sort((a, b) => b.length - a.length).map(escaped).join("|"), "g");
    return text.replace(this.pattern, "[secret]");
  }
}
