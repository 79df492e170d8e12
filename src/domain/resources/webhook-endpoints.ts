import type { ResourceDeclaration } from '../engine/declaration.js'

/** v1 webhook endpoints as plain records (deliveries go to v2 event destinations; see docs/resource-engine.md). */
export const webhookEndpoints: ResourceDeclaration = {
  type: 'WebhookEndpoint',
  object: 'webhook_endpoint',
  idPrefix: 'we',
  defaults: ({ id }) => ({ secret: `whsec_${id.slice(3)}`, status: 'enabled' }),
}
