import type { ResourceDeclaration } from '../engine/declaration.js'

/** Account sessions: created, never kept; valid thirty minutes. */
export const accountSessions: ResourceDeclaration = {
  type: 'AccountSession',
  object: 'account_session',
  idPrefix: 'acctsess',
  ephemeral: true,
  defaults: ({ id, created }) => ({ client_secret: `_${id}_secret`, expires_at: created + 1800 }),
}
