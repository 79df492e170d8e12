import type { ResourceDeclaration } from '../../engine/declaration.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { tableError } from '../../service-error.js'

/** Every feature off, as a configuration is before its `features` params apply. */
const FEATURES_OFF = {
  customer_update: { allowed_updates: [], enabled: false },
  invoice_history: { enabled: false },
  payment_method_update: { enabled: false, payment_method_configuration: null },
  subscription_cancel: {
    cancellation_reason: { enabled: false, options: [] },
    enabled: false,
    mode: 'at_period_end',
    proration_behavior: 'none',
  },
  subscription_pause: { duration: { interval_options: [], type: 'indefinite' }, enabled: false },
  subscription_update: {
    billing_cycle_anchor: null,
    default_allowed_updates: [],
    enabled: false,
    products: [],
    proration_behavior: 'none',
    schedule_at_period_end: { conditions: [] },
    trial_update_behavior: 'end_trial',
  },
}

/**
 * The features of the configuration the provider makes for an account's first portal session
 * when it has none: invoice history, payment method and customer updates, and cancellation at the
 * period's end.
 *
 * @example
 * engine.resource('billing_portal.configuration').create(scope, { features: DEFAULT_PORTAL_FEATURES }, origin, { is_default: true })
 */
export const DEFAULT_PORTAL_FEATURES = {
  customer_update: { allowed_updates: ['email', 'address', 'shipping', 'phone', 'tax_id'], enabled: true },
  invoice_history: { enabled: true },
  payment_method_update: { enabled: true },
  subscription_cancel: { enabled: true, mode: 'at_period_end', proration_behavior: 'none' },
}

/**
 * Customer portal configurations: created with the features asked for (the rest off), updated,
 * listed (`active`, `is_default` filter), each change emitting `billing_portal.configuration.*`.
 * The default configuration cannot be deactivated, as the provider refuses it.
 *
 * @example
 * engine.run('billingPortal.configurations.create', { scope, origin, path: {}, params: { features: { invoice_history: { enabled: true } } } })
 * // { id: 'bpc_…', object: 'billing_portal.configuration', active: true, is_default: false, ... }
 */
export const billingPortalConfigurations: ResourceDeclaration<ResourcePorts> = {
  type: 'BillingPortal.Configuration',
  object: 'billing_portal.configuration',
  noun: 'billing portal configuration',
  idPrefix: 'bpc',
  touch: ['updated'],
  // Includable: answered only when `expand[]` names it.
  withheld: ['features.subscription_update.products'],
  defaults: () => ({
    active: true,
    business_profile: { headline: null, privacy_policy_url: null, terms_of_service_url: null },
    features: structuredClone(FEATURES_OFF),
    login_page: { enabled: false, url: null },
  }),
  behaviours: {
    'billingPortal.configurations.update'(call, next, { engine }) {
      const current = engine.resource('billing_portal.configuration').require(call.scope, call.path.id ?? '')
      const active = call.params.active
      if (current.is_default === true && (active === false || active === 'false')) {
        throw tableError('portal_default_configuration_inactive', {}, { param: 'active' })
      }
      return next()
    },
  },
}
