import type { VersionChange } from '../change.js'
import { BASIL_BILLING } from './basil-billing.js'
import { CHARGES_LIST } from './charges-list.js'
import { LEGACY_USAGE } from './legacy-usage.js'
import { PAYMENT_METHOD_TYPES } from './payment-method-types.js'

/**
 * The hand-written changes, newest first. A plain field added or removed needs no entry: the
 * generated facts cover it.
 *
 * @example
 * CHANGES.filter((c) => c.version > '2022-08-01').length
 */
export const CHANGES: readonly VersionChange[] = [BASIL_BILLING, LEGACY_USAGE, PAYMENT_METHOD_TYPES, CHARGES_LIST]
