import type { ResourceDeclaration } from '../engine/declaration.js'
import { subList } from './sub-list.js'

/** Invoices (plain: a draft with no lines; finalisation and payment come with billing). */
export const invoices: ResourceDeclaration = {
  type: 'Invoice',
  object: 'invoice',
  idPrefix: 'in',
  defaults: ({ id, created }) => ({
    billing_reason: 'manual',
    collection_method: 'charge_automatically',
    currency: 'usd',
    lines: subList(`/v1/invoices/${id}/lines`),
    period_end: created,
    period_start: created,
    status: 'draft',
  }),
}
