/** A token bucket: `perSecond` requests a second, with a burst of the same size (at least one). */
export class TokenBucket {
  private readonly burst: number;
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    now: number,
  ) {
    this.burst = Math.max(1, perSecond);
    this.tokens = this.burst;
    this.last = now;
  }

  /** Take a token; returns undefined if allowed, else the whole seconds to wait (at least 1). */
  take(now: number): number | undefined {
    if (this.perSecond <= 0) return undefined;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond));
  }
}
