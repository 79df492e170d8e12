import type { BehaviourEnv, OperationCall, ResourceDeclaration } from '../../engine/declaration.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { tableError } from '../../service-error.js'
import { DEFAULT_PORTAL_FEATURES } from './billing-portal-configurations-resource.js'

type Env = BehaviourEnv<ResourcePorts>
type Params = Readonly<Record<string, unknown>>

/**
 * The configuration a session uses: the one named (which must be active), else the account's
 * default, made with the provider's default features on the account's first session.
 */
function configurationOf(env: Env, call: OperationCall): Json {
  const r = env.engine.resource('billing_portal.configuration')
  const named = call.params.configuration
  if (typeof named === 'string') {
    const found = r.requireParam(call.scope, named, 'configuration')
    if (found.active !== true) throw tableError('portal_configuration_inactive', { id: named }, { param: 'configuration' })
    return found
  }
  const existing = r.list(call.scope).find((c) => c.is_default === true)
  if (existing !== undefined) return existing
  return r.create(call.scope, { features: DEFAULT_PORTAL_FEATURES }, call.origin, { is_default: true })
}

/** The session's `flow` from `flow_data`: what the provider answers, each part not asked for null. */
function flowOf(data: unknown): Record<string, unknown> | null {
  if (typeof data !== 'object' || data === null) return null
  const d = data as Params
  const after = (d.after_completion ?? {}) as Params
  return {
    after_completion: {
      hosted_confirmation: after.hosted_confirmation ?? null,
      redirect: after.redirect ?? null,
      type: after.type ?? 'portal_homepage',
    },
    customer_update: null,
    subscription_cancel: d.subscription_cancel ?? null,
    subscription_pause: null,
    subscription_update: d.subscription_update ?? null,
    subscription_update_confirm: d.subscription_update_confirm ?? null,
    type: d.type,
  }
}

/**
 * Customer portal sessions (`billingPortal.sessions.create`): for a customer of the account, with
 * the named configuration or the account's default one (made on first use, as the provider does).
 * The session is kept, and its `url` has the provider's shape
 * (`https://billing.stripe.com/p/session/test_…`), its token the session's own id, so the
 * customer-side pages can find the session it opens. Emits `billing_portal.session.created`.
 *
 * @example
 * engine.run('billingPortal.sessions.create', { scope, origin, path: {}, params: { customer: 'cus_1', return_url: 'https://example.com' } })
 * // { id: 'bps_…', object: 'billing_portal.session', configuration: 'bpc_…', url: 'https://billing.stripe.com/p/session/test_…', ... }
 */
export const billingPortalSessions: ResourceDeclaration<ResourcePorts> = {
  type: 'BillingPortal.Session',
  object: 'billing_portal.session',
  noun: 'billing portal session',
  idPrefix: 'bps',
  behaviours: {
    'billingPortal.sessions.create'(call, next, env) {
      if (typeof call.params.customer === 'string') {
        env.engine.resource('customer').requireParam(call.scope, call.params.customer, 'customer')
      }
      const configuration = configurationOf(env, call)
      const { flow_data: flowData, ...params } = call.params
      return next({ ...params, configuration: configuration.id }, (session) => ({
        flow: flowOf(flowData),
        locale: call.params.locale ?? null,
        return_url: call.params.return_url ?? configuration.default_return_url ?? null,
        url: `https://billing.stripe.com/p/session/${call.scope.mode === 'test' ? 'test_' : ''}${String(session.id).slice(4)}`,
      }))
    },
  },
}
