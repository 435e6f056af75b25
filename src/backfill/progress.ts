/**
 * Progress on stderr: one line redrawn in place (`\r`) when stderr is a terminal, otherwise a plain line every
 * few seconds (logs, CI). Shows done/total, achieved rate, ETA and counts by outcome.
 */
export interface Counts {
  created: number;
  existing: number;
  failed: number;
  /** Reported from the journal: finished in an earlier run. */
  earlier: number;
  /** Not attempted (interrupted, or stopped after a fatal error). */
  notSent: number;
}

export interface ProgressOptions {
  total: number;
  write: (text: string) => void;
  tty: boolean;
  /** Plain-line period when not a terminal. */
  periodMs?: number;
  now?: () => number;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export class Progress {
  readonly counts: Counts = { created: 0, existing: 0, failed: 0, earlier: 0, notSent: 0 };
  /** Requests started this run (drives the rate). */
  sent = 0;
  readonly #o: Required<ProgressOptions>;
  readonly #start: number;
  #firstSendAt: number | null = null;
  #lastDraw = 0;
  #drawn = false;
  #timer: NodeJS.Timeout | null = null;
  #configuredRate = 0;

  constructor(options: ProgressOptions) {
    this.#o = { periodMs: 5_000, now: Date.now, ...options };
    this.#start = this.#o.now();
  }

  start(configuredRate: number): void {
    this.#configuredRate = configuredRate;
    if (!this.#o.tty) {
      this.#timer = setInterval(() => this.#o.write(`${this.line()}\n`), this.#o.periodMs);
      this.#timer.unref();
    }
  }

  noteSend(): void {
    this.sent++;
    this.#firstSendAt ??= this.#o.now();
  }

  get done(): number {
    const c = this.counts;
    return c.created + c.existing + c.failed + c.earlier + c.notSent;
  }

  /** Calls per second started since the first request of this run. */
  rate(): number | null {
    if (this.#firstSendAt === null || this.sent < 2) return null;
    const elapsed = (this.#o.now() - this.#firstSendAt) / 1000;
    return elapsed > 0 ? (this.sent - 1) / elapsed : null;
  }

  line(): string {
    const { total } = this.#o;
    const c = this.counts;
    const pct = total ? Math.floor((this.done / total) * 100) : 100;
    const rate = this.rate();
    const remaining = total - this.done;
    const eta = remaining <= 0 ? '0s' : formatDuration((remaining / (rate ?? this.#configuredRate)) * 1000);
    const parts = [`created ${c.created}`, `existing ${c.existing}`, `failed ${c.failed}`];
    if (c.earlier) parts.push(`done earlier ${c.earlier}`);
    if (c.notSent) parts.push(`not sent ${c.notSent}`);
    const width = String(total).length;
    return `${String(this.done).padStart(width)}/${total} ${String(pct).padStart(3)}% | ${rate === null ? '-' : rate.toFixed(2)} calls/s | ETA ${eta} | ${parts.join(', ')}`;
  }

  /** Redraws the terminal line (at most every 100 ms). */
  update(force = false): void {
    if (!this.#o.tty) return;
    const now = this.#o.now();
    if (!force && now - this.#lastDraw < 100) return;
    this.#lastDraw = now;
    this.#o.write(`\r\x1b[2K${this.line()}`);
    this.#drawn = true;
  }

  /** Prints a message above the progress line. */
  note(message: string): void {
    if (this.#o.tty && this.#drawn) this.#o.write('\r\x1b[2K');
    this.#o.write(`${message}\n`);
    if (this.#o.tty && this.#drawn) this.update(true);
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    if (this.#o.tty) this.#o.write(`\r\x1b[2K${this.line()}\n`);
    else this.#o.write(`${this.line()}\n`);
  }

  elapsedMs(): number {
    return this.#o.now() - this.#start;
  }
}
