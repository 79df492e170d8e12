import type { Json } from '#domain/index.js'
import { canonicalJson } from '#kernel/index.js'
import { type Violation, violation } from '../checkers/violation.js'
import type { FlowRun } from '../flows/flow-run.js'
import { refuseArgument } from '../refuse-argument.js'
import { HarnessInputError } from '../validate-input.js'
import type { Rule } from './rule.js'
import { ruleInput } from './rule-input.js'

/**
 * The provider's objects as a projection reads them (the platform account, test mode). The
 * `account` resource is the platform's connected accounts, as `GET /v1/accounts` lists them.
 */
export interface ProviderView {
  /** Every object of a resource (`subscription`, `checkout.session`, `refund`, `account`, ...). */
  list(resource: string): readonly Json[]
  get(resource: string, id: string): Json | undefined
  /** The objects of one connected account (what the platform reads acting for it with `Stripe-Account`). */
  onAccount(account: string): ProviderView
  /** Virtual time now (epoch ms). */
  readonly now: number
}

/** How to set the app's observable state beside the provider's: both as records by key. */
export interface StateProjection<App> {
  /**
   * The app's observable state by key (what its database holds, what its gate answers); a promise
   * when the app reads it from its database (`env.store`, a query, an HTTP call to a running app).
   */
  app(app: App): Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>
  /** The provider's truth by the same keys. */
  provider(view: ProviderView): Readonly<Record<string, unknown>>
}

/** Settings of {@link stateMatches}. */
export interface StateMatchesOptions {
  /**
   * When to compare: `final` (once, after the deliveries settled at the end; default) or `settled`
   * (also after every step, for each key whose object's latest event the app accepted).
   */
  readonly when?: 'final' | 'settled'
  /**
   * The ids of the objects whose events decide a key, when the key is not itself such an object
   * (a wallet keyed by charge follows the charge's refunds): the key is judged only once the
   * latest event about each of them was accepted. Default: the key alone. A key that no event
   * names is judged whatever was delivered, so without this an aggregate is compared while an
   * event about one of its parts is still undelivered (the provider gave up while the receiver was
   * down).
   */
  readonly objectsOf?: (key: string, view: ProviderView) => readonly string[]
}

/**
 * Builds the provider view of a run.
 *
 * @example
 * providerView(run).list('subscription')
 */
export function providerView(run: FlowRun): ProviderView {
  refuseArgument('providerView', 'run', run, 'object')
  refuseArgument('providerView', 'run.sim', run.sim, 'simulator')
  return viewOf(run.sim, run.sim.platform.id)
}

/** The view of one account's objects; its `account` resource lists the accounts it is the platform of. */
function viewOf(sim: FlowRun['sim'], account: string): ProviderView {
  const scope = { account, mode: 'test' as const }
  const engine = sim.service.engine
  const connected = (): Json[] =>
    sim.service.accounts
      .list()
      .filter((a) => a.platform === account)
      .flatMap((a) => {
        const o = engine.resource('account').get({ account: a.id, mode: 'test' }, a.id) as Json | undefined
        return o === undefined ? [] : [o]
      })
  return {
    list: (resource) => (resource === 'account' ? connected() : (engine.resource(resource).list(scope) as Json[])),
    get: (resource, id) =>
      resource === 'account'
        ? connected().find((o) => o.id === id)
        : (engine.resource(resource).get(scope, id) as Json | undefined),
    onAccount: (id) => viewOf(sim, id),
    now: sim.clock.now,
  }
}

/**
 * A state rule: the app's observable state equals the provider's through a projection the user
 * gives (the keys both name, compared as canonical JSON), at the end of the run or whenever a
 * key's deliveries have settled. A key is settled when its object's latest event (the key is
 * taken as an object id, or its objects are named by `objectsOf`) was accepted, or when no event
 * named it.
 *
 * @example
 * stateMatches('refunds.mirrored', {
 *   app: (app) => app.refunds(),
 *   provider: (view) => Object.fromEntries(view.list('refund').map((r) => [r.id, r.status])),
 * })
 */
export function stateMatches<App>(name: string, projection: StateProjection<App>, options: StateMatchesOptions = {}): Rule<App> {
  refuseArgument('stateMatches', 'options', options, 'options')
  if (typeof name !== 'string' || name === '')
    throw new HarnessInputError(`stateMatches: the rule's name must be a non-empty string, got ${JSON.stringify(name)}`)
  ruleInput(
    'stateMatches',
    { fns: { 'projection.app': projection?.app, 'projection.provider': projection?.provider } },
    undefined,
  )
  if (options.when !== undefined && options.when !== 'final' && options.when !== 'settled')
    throw new HarnessInputError(`stateMatches: option 'when' must be 'final' or 'settled', got ${JSON.stringify(options.when)}`)
  return {
    name,
    description: 'the app state equals the provider state through the projection',
    probe(context, final) {
      if (!final && options.when !== 'settled') return
      const { run } = context
      const view = providerView(run)
      const accepted = (id: string) => {
        const last = run.latest.get(id)
        return last === undefined || run.acked.has(last)
      }
      const settled = (key: string) => (options.objectsOf?.(key, view) ?? [key]).every(accepted)
      // The provider's truth at the checkpoint, before the app's own read is awaited.
      const truth = projection.provider(view)
      const compare = (app: Readonly<Record<string, unknown>>) => {
        const keys = [...new Set([...Object.keys(truth), ...Object.keys(app)])].filter((k) => settled(k)).sort()
        const pairs = keys.map((key) => ({ key, app: app[key] ?? null, provider: truth[key] ?? null }))
        context.note({ rule: name, final, pairs: JSON.parse(canonicalJson(pairs)) })
      }
      const app = projection.app(context.app)
      return app instanceof Promise ? app.then(compare) : compare(app)
    },
    check(history) {
      const out: Violation[] = []
      const reported = new Set<string>()
      for (const e of history.entries) {
        if (e.kind !== 'harness.rule.state' || e.data.rule !== name) continue
        for (const p of e.data.pairs as { key: string; app: unknown; provider: unknown }[]) {
          if (reported.has(p.key) || canonicalJson(p.app) === canonicalJson(p.provider)) continue
          reported.add(p.key)
          out.push(
            violation(name, `${p.key}: the app has ${canonicalJson(p.app)}, the provider ${canonicalJson(p.provider)}`, [e]),
          )
        }
      }
      return out
    },
  }
}
