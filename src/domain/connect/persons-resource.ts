import { checkEmail, checkMetadata } from '../engine/checks.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'
import { resourceMissing } from '../service-error.js'
import { providedFlags } from './account-object.js'

type Params = Readonly<Record<string, unknown>>

/** Identity numbers the provider never echoes: each sets its `*_provided` flag instead. */
const SECRET: Readonly<Record<string, string>> = {
  id_number: 'id_number_provided',
  id_number_secondary: 'id_number_secondary_provided',
  ssn_last_4: 'ssn_last_4_provided',
}

const EMPTY_ADDRESS = { city: null, country: null, line1: null, line2: null, postal_code: null, state: null }

/** Params without the secret numbers and the person token (never fields of the object). */
function fieldParams(params: Params): Params {
  const out: Record<string, unknown> = {}
  for (const k in params) if (!(k in SECRET) && k !== 'person_token' && k !== 'documents') out[k] = params[k]
  return out
}

/** The flags a request's secret numbers set, over the ones the person already had. */
function flags(current: Params, params: Params): Record<string, unknown> {
  const flagged = providedFlags({}, params, SECRET) ?? {}
  const out: Record<string, unknown> = {}
  for (const flag of Object.values(SECRET)) out[flag] = flagged[flag] === true || current[flag] === true
  return out
}

/**
 * The persons of a connected account (`/v1/accounts/:id/persons`): representatives, owners,
 * directors, executives. A person lives in its account's scope (the path acts for that account),
 * so the platform's own scope never holds one; identity numbers are kept only as `*_provided`
 * flags, as the provider does. Create, update and delete emit `person.*`.
 *
 * @example
 * engine.run('accounts.createPerson', { scope, origin, path: { id: 'acct_1' }, params: { first_name: 'Jane', relationship: { representative: true } } })
 * // { id: 'person_…', object: 'person', account: 'acct_1', first_name: 'Jane', ssn_last_4_provided: false, ... }
 */
export const persons: ResourceDeclaration<ResourcePorts> = {
  type: 'Person',
  object: 'person',
  idPrefix: 'person',
  defaults: () => ({
    address: { ...EMPTY_ADDRESS },
    relationship: {
      authorizer: null,
      director: false,
      executive: false,
      legal_guardian: null,
      owner: false,
      percent_ownership: null,
      representative: false,
      title: null,
    },
    id_number_provided: false,
    ssn_last_4_provided: false,
  }),
  behaviours: {
    'accounts.createPerson'(call, next) {
      checkEmail(call.params.email, 'email')
      checkMetadata(call.params.metadata)
      return next(fieldParams(call.params), () => flags({}, call.params))
    },
    'accounts.updatePerson'(call, _next, { engine }) {
      checkEmail(call.params.email, 'email')
      checkMetadata(call.params.metadata)
      const id = call.path.id ?? ''
      const r = engine.resource('person')
      const current = r.require(call.scope, id)
      if (current.account !== call.path.accountId) throw resourceMissing('person', id)
      return r.update(call.scope, id, fieldParams(call.params), call.origin, (updated) => flags(updated, call.params))
    },
  },
}
