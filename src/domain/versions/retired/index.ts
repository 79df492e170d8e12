import type { RetiredBehaviour } from './retired-call.js'
import { CREATE_USAGE_RECORD, LIST_USAGE_RECORD_SUMMARIES } from './retired-usage-records.js'
import { LIST_UPCOMING_LINES, RETRIEVE_UPCOMING } from './upcoming-invoice.js'

export type { RetiredBehaviour, RetiredCall } from './retired-call.js'

/**
 * The retired operations served at the versions that had them, by the name of their last client
 * (verb, path, params type and last version come from the generated facts). A retired operation
 * not listed here answers 404 at every version, as an unknown URL.
 *
 * @example
 * Object.keys(RETIRED_BEHAVIOURS) // ['invoices.retrieveUpcoming', 'invoices.listUpcomingLines', ...]
 */
export const RETIRED_BEHAVIOURS: Readonly<Record<string, RetiredBehaviour>> = {
  'invoices.retrieveUpcoming': RETRIEVE_UPCOMING,
  'invoices.listUpcomingLines': LIST_UPCOMING_LINES,
  'subscriptionItems.createUsageRecord': CREATE_USAGE_RECORD,
  'subscriptionItems.listUsageRecordSummaries': LIST_USAGE_RECORD_SUMMARIES,
}
