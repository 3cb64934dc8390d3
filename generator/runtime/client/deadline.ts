/**
 * Attempt timeouts. A fetch can only be aborted through the signal it was given at the start,
 * so an attempt with a timeout needs an AbortSignal before it is sent. On Node 20 creating
 * one costs more than all the rest of a call (about 9 µs: Node builds each signal as an
 * EventTarget and then swaps its prototype). So attempts that start within the same short
 * window with the same timeout share one controller and one timer, which fires at the end
 * of the window plus the timeout: every attempt still running then has run at least its
 * timeout, and at most 1% (never more than 1 s) longer.
 *
 * Sharing needs timers that can be unref'd (Node, Bun), so that a shared timer never keeps
 * a process alive. Elsewhere (browsers, Deno, edge runtimes, where a timer is a
 * number) and whenever the caller passes a signal of their own, each attempt gets its own
 * controller and an exact timer.
 */

/** Attempts one shared deadline takes, below the 1500 abort listeners undici allows a signal. */
const maxShared = 1000;
/** The shared deadline still open for new attempts, by timeout. */
const open = new Map<number, Deadline>();
/** Whether timers can be unref'd here; found out at the first timeout. */
let shareable: boolean | undefined;

/** Fires a deadline's timeout: aborts its signal and marks it so. */
function fire(deadline: Deadline): void {
  deadline.fired = true;
  deadline.controller.abort();
  if (open.get(deadline.timeoutMs) === deadline) open.delete(deadline.timeoutMs);
}

/**
 * The signal attempts send with, and whether its timeout fired. Shared by the attempts that
 * start before `closesAt`; an attempt's own (`closesAt` -1) also follows the caller's signal.
 */
export class Deadline {
  /** True once the timeout fired: an abort is then ours, not the caller's. */
  fired = false;
  readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  /** Attempts that joined a shared deadline. */
  entered = 1;
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    readonly timeoutMs: number,
    readonly closesAt: number,
    private readonly caller?: AbortSignal,
  ) {
    this.timer = setTimeout(fire, closesAt < 0 ? timeoutMs : timeoutMs + closesAt - now(), this);
    // A shared timer never holds the process: an attempt in flight holds it by its socket,
    // and once none is, nothing is left to time out.
    if (closesAt >= 0) (this.timer as unknown as { unref(): void }).unref();
    caller?.addEventListener("abort", this, { once: true });
  }

  /** The caller's signal fired: abort the attempt with its reason. */
  handleEvent(): void {
    this.controller.abort(this.caller?.reason);
  }

  /** Called when an attempt is over, whatever its outcome: an own deadline is done. */
  leave(): void {
    if (this.closesAt >= 0) return;
    clearTimeout(this.timer);
    this.caller?.removeEventListener("abort", this);
  }
}

/** A monotonic clock: a wall clock set back would let attempts join a deadline that fires early. */
const now = () => performance.now();

/** The deadline of an attempt that starts now with this timeout and the caller's signal. */
export function deadline(timeoutMs: number, caller: AbortSignal | undefined): Deadline {
  if (shareable === undefined) {
    const probe = setTimeout(() => {}, 0) as unknown as { unref?: unknown };
    shareable = typeof probe.unref === "function";
    clearTimeout(probe as ReturnType<typeof setTimeout>);
  }
  if (caller || !shareable) return new Deadline(timeoutMs, -1, caller);
  const start = now();
  const shared = open.get(timeoutMs);
  if (shared !== undefined && start <= shared.closesAt && shared.entered < maxShared) {
    shared.entered++;
    return shared;
  }
  const fresh = new Deadline(timeoutMs, start + Math.min(timeoutMs / 100, 1000));
  open.set(timeoutMs, fresh);
  return fresh;
}
