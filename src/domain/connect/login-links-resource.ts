import type { ResourceDeclaration } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import type { ResourcePorts } from '../resource-ports.js'
import { resourceMissing, tableError } from '../service-error.js'

/**
 * Login links to the Express dashboard (`/v1/accounts/:id/login_links`): answered, never kept (a
 * login link has no id), for an Express account only, as the provider allows. The url has the
 * provider's shape, one drawn token per link.
 *
 * @example
 * engine.run('accounts.createLoginLink', { scope, origin, path: { id: 'acct_1' }, params: {} })
 * // { object: 'login_link', created: 1767225600, url: 'https://connect.stripe.com/express/acct_1/…' }
 */
export const loginLinks: ResourceDeclaration<ResourcePorts> = {
  type: 'LoginLink',
  object: 'login_link',
  idPrefix: 'll',
  ephemeral: true,
  behaviours: {
    'accounts.createLoginLink'(call, next, { engine }) {
      const id = call.path.id ?? ''
      const account = engine.resource('account').get(call.scope, id) as Json | undefined
      if (account === undefined || id !== call.scope.account) throw resourceMissing('account', id)
      if (account.type !== 'express') throw tableError('login_link_not_express', { id }, { param: 'account' })
      return next({}, (link) => ({ url: `https://connect.stripe.com/express/${id}/${String(link.id).slice(3)}` }))
    },
  },
}
