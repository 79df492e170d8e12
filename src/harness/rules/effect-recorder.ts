import type { Simulator } from '#simulator/index.js'

/** A JSON-safe detail an app may attach to an effect (an amount, a template, an order line). */
export type EffectDetail = Readonly<Record<string, string | number | boolean | null>>

/**
 * Where an app under test says what it did to the outside world: an email sent, an order shipped,
 * access granted, a refund credited. Each call lands in the run's trace with its causal context
 * (the event the app was handling, what it last read from the API, the provider's state of the
 * object then), so rules judge what the app did and what it could know.
 *
 * @example
 * env.effects.record('email.welcome', subscription.id, { template: 'welcome' })
 */
export interface EffectRecorder {
  /** Records one effect: its `kind` (what was done) and `key` (the object it was done for). */
  record(kind: string, key: string, detail?: EffectDetail): void
}

/**
 * A recorder that appends each effect to a trace (`harness.rule.effect`), without causal context:
 * what a run gives an app before the rule machinery adds the context.
 *
 * @example
 * const effects = traceEffectRecorder(sim.service.kernel.trace)
 * effects.record('email.welcome', 'sub_1')
 */
export function traceEffectRecorder(trace: Simulator['service']['kernel']['trace']): EffectRecorder {
  return {
    record(kind, key, detail) {
      trace.append('harness.rule.effect', { kind: String(kind), key: String(key), detail: detail ?? null })
    },
  }
}
