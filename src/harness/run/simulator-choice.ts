import type { Simulator, SimulatorOptions } from '#simulator/index.js'

/**
 * Options of the simulators a harness check or run makes, as a user's tests make theirs: every
 * option of `createSimulator` but those the harness owns (the seed and faults come from each
 * program, the clock is the simulator's own, and a run starts from `base` rather than a snapshot).
 *
 * @example
 * const simOptions: HarnessSimOptions = { headerPrefix: 'Stripe', limits: false }
 */
export type HarnessSimOptions = Omit<SimulatorOptions, 'seed' | 'faults' | 'from' | 'clock'>

/**
 * The simulator options of a billing flow check or run: those of every check, and `clock: 'global'`
 * for an app that reads the time itself (`Date.now()`, a library verifying signatures for it):
 * each run then installs the global clock and brings it to the run's time at every delivery.
 *
 * @example
 * await checkSubscriptionMirror(mirror, { headerPrefix: 'Stripe', simOptions: { clock: 'global' } })
 */
export type FlowSimOptions = HarnessSimOptions & { readonly clock?: 'global' | undefined }

/** The simulator options the harness owns, and what to use instead. */
export const harnessOwnedSimOptions: Readonly<Record<string, string>> = {
  seed: "each run's seed comes from its program",
  faults: "pass 'faults' beside 'simOptions'",
  from: "pass 'base: createSimulator({ from })'",
  clock: "the runs' clock is the simulator's own",
}

/**
 * Which simulator the runs of a check start from: the header names and API version the user's
 * client speaks, further simulator options, or a simulator of the user's own (`base`) that every
 * run forks. `headerPrefix: 'Stripe'` lets a receiver read `Stripe-Signature` with the official
 * client's `stripe.webhooks.constructEvent` and a reporter see `Stripe-Should-Retry`.
 *
 * @example
 * await checkWebhookReceiver(myReceiver, { headerPrefix: 'Stripe' })
 * await assertRun(program, { reporter, base: createSimulator({ headerPrefix: 'Stripe' }) })
 */
export interface SimulatorChoice {
  /** Prefix of the provider-named headers (`Service` by default; `Stripe` for the official client). */
  readonly headerPrefix?: string | undefined
  /** Default API version of the accounts the runs make (passed to `createSimulator`). */
  readonly apiVersion?: string | undefined
  /** Further options of the simulators the runs make (`limits`, `serviceTime`, ...). */
  readonly simOptions?: HarnessSimOptions | undefined
  /**
   * A simulator of the user's own (accounts, objects, destinations...) every run starts from
   * instead of an empty one: the harness's setup is made on a fork of it, and each run goes on
   * with its program's seed and the run's faults. Its header prefix and API version are the runs';
   * `headerPrefix` and `apiVersion`, when given too, must name the same. The base is read once, at
   * the first run that names it (forked and set up then): change it afterwards and pass a fork of
   * it (`base.fork()`) to have runs start from the new state.
   */
  readonly base?: Simulator | undefined
}

/**
 * The `createSimulator` options a choice names (without `base`, which is forked instead).
 *
 * @example
 * createSimulator({ ...simulatorOptionsOf({ headerPrefix: 'Stripe' }), seed: 1 })
 */
export function simulatorOptionsOf(choice: SimulatorChoice): HarnessSimOptions {
  return {
    ...choice.simOptions,
    ...(choice.headerPrefix === undefined ? {} : { headerPrefix: choice.headerPrefix }),
    ...(choice.apiVersion === undefined ? {} : { apiVersion: choice.apiVersion }),
  }
}

/**
 * The choice's simulator fields alone: what a check passes on to each run.
 *
 * @example
 * const run = { reporter, ...simulatorChoiceOf(options) }
 */
export function simulatorChoiceOf(choice: SimulatorChoice): SimulatorChoice {
  return {
    ...(choice.headerPrefix === undefined ? {} : { headerPrefix: choice.headerPrefix }),
    ...(choice.apiVersion === undefined ? {} : { apiVersion: choice.apiVersion }),
    ...(choice.simOptions === undefined ? {} : { simOptions: choice.simOptions }),
    ...(choice.base === undefined ? {} : { base: choice.base }),
  }
}

/**
 * A key telling prepared simulators apart by the options they were made with (the base is keyed
 * by identity elsewhere).
 *
 * @example
 * simulatorKeyOf({ headerPrefix: 'Stripe' }) // '{"headerPrefix":"Stripe"}'
 */
export function simulatorKeyOf(choice: SimulatorChoice): string {
  return JSON.stringify(simulatorOptionsOf(choice))
}
