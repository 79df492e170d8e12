/**
 * A promise already fulfilled, to wait one microtask turn on: `await TURN` takes exactly the turn
 * `await null` takes (one job, queued at once), but `await null` first wraps `null` in a new
 * promise. With async hooks on (the harness's `AsyncLocalStorage`), each promise also runs the
 * init hook, so the loops that poll turn by turn for a delivery's answer make half the promises.
 *
 * @example
 * for (let i = 0; i < 16 && !done; i++) await TURN
 */
export const TURN: Promise<void> = Promise.resolve()
