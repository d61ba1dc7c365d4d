/** A token bucket: `perSecond` requests a second, with a burst of the same size. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = perSecond;
    this.last = now;
  }

  /** Take a token; returns undefined if allowed, else the whole seconds to wait (at least 1). */
  take(now: number): number | undefined {
    if (this.perSecond <= 0) return undefined;
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond));
  }
}
