import type { CheckoutCompletion } from '#domain/checkout/complete-checkout.js'
import type { TriggerOverrides } from '#domain/events/delivery/trigger.js'
import type { StoredEvent } from '#domain/events/event.js'
import { type FixtureOptions, type FixtureResult, type FixtureStep, fixtureFailure } from './fixtures.js'
import { CHECKOUT_COMPLETIONS, triggerRecipe } from './trigger-recipes.js'

/**
 * Options of a generated event (`synthetic: true`, or a body given): built from the catalogue's
 * type with these values over it, naming no stored object; returned at once.
 */
export type GeneratedTriggerOverrides = TriggerOverrides &
  (
    | { readonly synthetic: true }
    | { readonly object: Record<string, unknown> }
    | { readonly data: Record<string, unknown> }
    | { readonly relatedObject: { id: string; type: string; url: string } | null }
  )

/** Options of a trigger that runs the API calls causing the event. */
export interface CausedTriggerOptions {
  /** The account the calls are made on (default the platform). */
  readonly account?: string
  /** `live` gets a generated event: the recipes pay with test cards, which live mode refuses. */
  readonly mode?: 'test' | 'live'
}

/** An event a trigger caused, with the API requests that caused it (none for a generated one). */
export type TriggeredEvent = StoredEvent & { readonly requests: readonly FixtureStep[] }

/**
 * `sim.admin.trigger`: as the provider CLI's trigger, runs the API calls that cause an event of
 * `type` (`service-sim trigger --list` names the types with a recipe), so the event names a stored
 * object in the state it says; a type without a recipe gets a generated event. With
 * `synthetic: true` or a body (`object`, `data`, `relatedObject`) it returns a generated event at
 * once, as delivery tests and property programs need.
 *
 * @example
 * const evt = await sim.admin.trigger('payment_intent.succeeded') // a confirmed payment intent exists
 * const generated = sim.admin.trigger('customer.created', { synthetic: true })
 */
export interface CausingTrigger {
  (type: string, overrides: GeneratedTriggerOverrides): StoredEvent
  (type: string, options?: CausedTriggerOptions): Promise<TriggeredEvent>
}

/** What running a recipe needs of the simulator. */
export interface TriggerHost {
  readonly generate: (type: string, overrides?: TriggerOverrides) => StoredEvent
  readonly loadFixtures: (json: unknown, options?: FixtureOptions) => Promise<FixtureResult>
  readonly completeCheckout: (session: string, input: CheckoutCompletion) => Promise<unknown>
  readonly events: () => readonly StoredEvent[]
  readonly accountExists: (id: string) => boolean
  readonly settle: () => Promise<void>
  readonly traced: (type: string) => void
}

/**
 * Whether a trigger's options ask for a generated event rather than the API calls that cause it.
 *
 * @example
 * wantsGenerated({ object: { amount: 5 } }) // true
 */
export function wantsGenerated(options: object | undefined): options is GeneratedTriggerOverrides {
  if (options === undefined) return false
  const o = options as Partial<GeneratedTriggerOverrides> & { synthetic?: boolean }
  return o.synthetic === true || o.object !== undefined || o.data !== undefined || o.relatedObject !== undefined
}

/**
 * Builds `sim.admin.trigger` over a host: a generated event at once when asked for (see
 * `wantsGenerated`), else the recipe's API calls, then the checkout completion the type needs, then
 * the first event of `type` they caused. An unknown account or a failing call
 * rejects with a TypeError naming why.
 *
 * @example
 * const trigger = createCausingTrigger(host)
 * const evt = await trigger('invoice.paid')
 */
export function createCausingTrigger(host: TriggerHost): CausingTrigger {
  async function cause(type: string, options: CausedTriggerOptions): Promise<TriggeredEvent> {
    const { account } = options
    if (account !== undefined && !host.accountExists(account)) throw new TypeError(`trigger: no such account '${account}'`)
    const recipe = options.mode === 'live' ? undefined : triggerRecipe(type)
    if (recipe === undefined) {
      const generated = host.generate(type, {
        ...(account === undefined ? {} : { account }),
        ...(options.mode === undefined ? {} : { mode: options.mode }),
      })
      return { ...generated, requests: [] }
    }
    host.traced(type)
    const before = host.events().length
    const result = await host.loadFixtures(recipe, account === undefined ? {} : { account })
    if (!result.ok) throw new TypeError(`trigger: ${type}: the trigger's requests failed: ${fixtureFailure(result)}`)
    const paymentMethod = CHECKOUT_COMPLETIONS[type]
    const session = result.steps.find((s) => s.name === 'checkout_session')?.id
    if (paymentMethod !== undefined && session !== undefined)
      await host.completeCheckout(session, { paymentMethod, ...(account === undefined ? {} : { account }) })
    await host.settle()
    const event = host
      .events()
      .slice(before)
      .find((e) => e.type === type)
    if (event === undefined) throw new TypeError(`trigger: ${type}: the trigger's requests ran but caused no ${type} event`)
    return { ...event, requests: result.steps }
  }
  return ((type: string, options?: GeneratedTriggerOverrides | CausedTriggerOptions) => {
    if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options)))
      throw new TypeError(`trigger: options must be an object, got ${options === null ? 'null' : typeof options}`)
    if (wantsGenerated(options)) {
      const { synthetic: _synthetic, ...overrides } = options as GeneratedTriggerOverrides & { synthetic?: true }
      return host.generate(type, overrides)
    }
    return cause(type, options ?? {})
  }) as CausingTrigger
}
