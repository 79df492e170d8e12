import type { BillingContext } from './context.js'
import type { Credits } from './credits.js'
import type { Discounts } from './discounts.js'
import { draftLines } from './invoice-amounts.js'
import { createInvoice, invoiceFields } from './invoice-fields.js'
import { finalize, scheduleFinalize } from './invoice-finalization.js'
import { createInvoiceIntents, type InvoiceIntents } from './invoice-intents.js'
import { emitInvoice, markUncollectible, overdue, resend, voidInvoice } from './invoice-status.js'
import type { BillingJobs } from './jobs.js'
import type { BillingLimits } from './limits.js'
import type { Lines } from './lines.js'
import type { Taxes } from './taxes.js'

/** What invoicing's functions share: the billing context and the parts of billing they call. */
export interface InvoicingParts {
  readonly ctx: BillingContext
  readonly lines: Lines
  readonly jobs: BillingJobs
  readonly limits: BillingLimits
  readonly discounts: Discounts
  readonly taxes: Taxes
  readonly credits: Credits
  readonly intents: InvoiceIntents
}

/**
 * Invoices' life before payment: a new invoice from line specs (`draft`), its finalization after
 * the grace period (metered lines recounted, a number, `open`) and voiding.
 */
export type Invoicing = ReturnType<typeof createInvoicing>

/**
 * Invoicing over billing's parts: the module functions with their parts bound, made once per
 * billing area (the invoice intents with it).
 *
 * @example
 * const invoicing = createInvoicing(ctx, jobs, limits, discounts, taxes, credits)
 * invoicing.finalize(scope, 'in_1', origin).status // 'open'
 */
export function createInvoicing(
  ctx: BillingContext,
  jobs: BillingJobs,
  limits: BillingLimits,
  discounts: Discounts,
  taxes: Taxes,
  credits: Credits,
) {
  const parts: InvoicingParts = {
    ctx,
    lines: ctx.lines,
    jobs,
    limits,
    discounts,
    taxes,
    credits,
    intents: createInvoiceIntents(ctx),
  }
  return {
    intents: parts.intents,
    draftLines: draftLines.bind(null, parts),
    invoiceFields: invoiceFields.bind(null, parts),
    createInvoice: createInvoice.bind(null, parts),
    emitInvoice: emitInvoice.bind(null, ctx),
    finalize: finalize.bind(null, parts),
    scheduleFinalize: scheduleFinalize.bind(null, parts),
    voidInvoice: voidInvoice.bind(null, parts),
    overdue: overdue.bind(null, ctx),
    markUncollectible: markUncollectible.bind(null, ctx),
    resend: resend.bind(null, ctx),
  }
}
