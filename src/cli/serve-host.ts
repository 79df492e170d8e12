import { createTransport, type IncomingExchangeHandler } from '#http/index.js'
import { callerNow } from '#kernel/index.js'
import { createSimulator, incomingExchangeOf, type Simulator } from '#simulator/index.js'
import { keepDeliveryAnswers } from './admin/delivery-answers.js'
import type { AdminHost } from './admin/host.js'
import { installServeReceiverFaults } from './serve-faults.js'
import type { SessionRecorder } from './session-record.js'
import { writeStateFile } from './state-file.js'
import type { ServeClock, WallDriver } from './wall-driver.js'

/** The simulator `serve` answers with now and its exchange of read requests (both replaced by a reset). */
export interface Served {
  sim: Simulator
  raw: IncomingExchangeHandler
}

/** What the host of `serve` is built from (the server's options, resolved). */
export interface ServeHostOptions {
  readonly clock: ServeClock
  readonly driver: WallDriver | undefined
  readonly recorder: SessionRecorder | undefined
  readonly rebuild?: () => Simulator | Promise<Simulator>
  readonly extras?: () => Record<string, unknown>
  readonly stateFile?: string
}

/**
 * Gets a simulator ready to be served: serve's receiver faults, the receivers' answers kept for
 * the admin API, and the recorder's transport when recording.
 *
 * @example
 * installServed(sim, undefined)
 */
export function installServed(target: Simulator, recorder: SessionRecorder | undefined): void {
  const base = createTransport(target.receivers)
  installServeReceiverFaults(
    target,
    keepDeliveryAnswers(target, recorder === undefined ? base : recorder.transport(base, target)),
  )
}

/**
 * The admin host of `serve`: time travel (through the wall driver when the clock follows the
 * wall), a reset that serves a fresh simulator from then on, and snapshots taken at rest.
 *
 * @example
 * const host = createServeHost(served, { clock: { mode: 'manual' }, driver: undefined, recorder: undefined })
 * await host.advance(60_000)
 */
export function createServeHost(served: Served, options: ServeHostOptions): AdminHost {
  const { clock, driver, recorder } = options
  const rebuild =
    options.rebuild ??
    (() =>
      createSimulator({
        seed: served.sim.seed,
        headerPrefix: served.sim.service.kernel.prefix,
        ...(clock.mode === 'wall' ? { start: callerNow() } : {}),
      }))
  // Time travel runs the work due on the way in order of its virtual time and waits for each
  // step's attempts to receivers outside the process (timed on the wall clock, so bounded) before
  // moving on: a real answer is never overtaken by the jump and recorded as a time-out.
  const move = async (ms: number) => {
    const { scheduler, clock: virtual } = served.sim.service.kernel
    await scheduler.advance(virtual.now + ms)
    await served.sim.settle()
  }
  return {
    get sim() {
      return served.sim
    },
    clock,
    advance: (ms) => (driver ? driver.jump(() => move(ms)) : move(ms)),
    async reset() {
      const fresh = await rebuild()
      installServed(fresh, recorder)
      recorder?.reset(fresh)
      served.sim = fresh
      served.raw = incomingExchangeOf(fresh)
      driver?.attach(fresh)
      return fresh
    },
    async snapshot() {
      const take = async () => {
        await served.sim.settle()
        return served.sim.snapshot()
      }
      // Serialised with the wall clock's catch-ups: the clock does not move while it is taken.
      const snapshot = driver ? await driver.jump(take) : await take()
      if (options.stateFile !== undefined) writeStateFile(options.stateFile, snapshot)
      return { snapshot, file: options.stateFile }
    },
    ...(options.extras === undefined ? {} : { extras: options.extras }),
  }
}
