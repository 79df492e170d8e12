import type { ResourceDeclaration } from '../engine/declaration.js'

/** Account links: created, never kept (they have no id); valid five minutes. */
export const accountLinks: ResourceDeclaration = {
  type: 'AccountLink',
  object: 'account_link',
  idPrefix: 'acctlink',
  ephemeral: true,
  defaults: ({ id, created }) => ({ expires_at: created + 300, url: `https://connect.stripe.com/setup/s/${id}` }),
}
