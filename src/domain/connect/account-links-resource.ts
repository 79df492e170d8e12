import { errorMessage } from '#catalogue/errors.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'
import { invalidRequest } from '../service-error.js'

/**
 * Account links: created, never kept (they have no id); valid five minutes. The `account` must be
 * one of the caller's connected accounts (or the caller itself), else 400 `resource_missing`.
 */
export const accountLinks: ResourceDeclaration<ResourcePorts> = {
  type: 'AccountLink',
  object: 'account_link',
  idPrefix: 'acctlink',
  ephemeral: true,
  defaults: ({ id, created }) => ({ expires_at: created + 300, url: `https://connect.stripe.com/setup/s/${id}` }),
  behaviours: {
    'accountLinks.create'(call, next, { ports }) {
      const id = call.params.account
      const account = typeof id === 'string' ? ports.accounts.get(id) : undefined
      if (
        typeof id === 'string' &&
        (account === undefined || (account.id !== call.scope.account && account.platform !== call.scope.account))
      ) {
        throw invalidRequest(errorMessage('resource_missing', { kind: 'account', id }), {
          code: 'resource_missing',
          param: 'account',
        })
      }
      return next()
    },
  },
}
