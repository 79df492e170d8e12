import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readDeclarations, releasesFromChangelog } from '../../scripts/generate-versions.js'
import { operations } from '../../src/catalogue/index.js'
import { CURRENT_VERSION, declaredAt, retiredOperations, servedVersions, subTypesAt } from '../../src/catalogue/versions.js'

const repo = join(import.meta.dirname, '..', '..')
const client = join(repo, 'node_modules', 'stripe')
const generated = join(repo, 'src', 'catalogue', 'generated')
const json = (file: string) => JSON.parse(readFileSync(join(generated, file), 'utf8'))

describe('the generated version facts', () => {
  it('list every version the client changelog pins from 2020-08-27 on, with the last release pinning each', () => {
    const fromChangelog = releasesFromChangelog(readFileSync(join(client, 'CHANGELOG.md'), 'utf8')).reverse()
    expect(servedVersions().map((v) => ({ version: v.version, client: v.client }))).toEqual(fromChangelog)
    for (const v of ['2020-08-27', '2022-08-01', '2022-11-15', '2023-08-16', '2023-10-16', '2024-04-10', '2024-06-20']) {
      expect(servedVersions().some((s) => s.version === v)).toBe(true)
    }
    expect(servedVersions().at(-1)?.version).toBe('2020-08-27')
  })

  it('record each release by its tarball integrity', () => {
    for (const v of servedVersions()) expect(v.integrity).toMatch(/^sha512-[A-Za-z0-9+/=]+$/)
  })

  it('start from the pinned client: its version and its declarations, read again here', async () => {
    const { ApiVersion } = await import(join(client, 'esm', 'apiVersion.js'))
    expect(CURRENT_VERSION).toBe(ApiVersion)
    expect(json('versions.json').current).toBe(ApiVersion)
    const base = json('version-base.json')
    const read = readDeclarations(client)
    expect(base.objects).toEqual(read.objects)
    expect(base.params).toEqual(read.params)
  })

  it('hold one well-formed delta for every version but the current one', () => {
    const deltas = json('version-deltas.json')
    const older = servedVersions()
      .slice(1)
      .map((v) => v.version)
    expect(Object.keys(deltas).sort()).toEqual([...older].sort())
    for (const d of Object.values(deltas) as Array<Record<string, Record<string, Record<string, string[]>>>>) {
      expect(Object.keys(d).sort()).toEqual(['objects', 'params'])
      for (const kind of Object.values(d)) {
        for (const change of Object.values(kind)) {
          for (const [sign, fields] of Object.entries(change)) {
            expect(['+', '-']).toContain(sign)
            for (const f of fields) expect(f).toMatch(/^(\*|[a-z0-9_]+\??(:[A-Za-z0-9.]+)?)$/)
          }
        }
      }
    }
  })

  it('know the well-known moves: invoice.payment_intent before basil, payment_intent.charges before 2022-11-15', () => {
    expect(declaredAt('2024-09-30.acacia', 'Invoice', 'objects')?.get('payment_intent')).toBe('required')
    expect(declaredAt('2025-03-31.basil', 'Invoice', 'objects')?.has('payment_intent')).toBe(false)
    expect(declaredAt('2022-08-01', 'PaymentIntent', 'objects')?.has('charges')).toBe(true)
    expect(declaredAt('2022-11-15', 'PaymentIntent', 'objects')?.has('charges')).toBe(false)
    expect(declaredAt('2024-09-30.acacia', 'Subscription', 'objects')?.get('current_period_end')).toBe('required')
    expect(declaredAt('2022-08-01', 'PaymentIntentCreateParams', 'params')?.has('payment_method_types')).toBe(true)
  })

  it('know the fields of sub-objects and which field holds which, per version', () => {
    expect(subTypesAt(CURRENT_VERSION, 'Invoice', 'objects')?.get('status_transitions')).toBe('Invoice.StatusTransitions')
    expect(subTypesAt(CURRENT_VERSION, 'Charge', 'objects')?.get('payment_method_details')).toBe('Charge.PaymentMethodDetails')
    expect(subTypesAt(CURRENT_VERSION, 'Charge.PaymentMethodDetails', 'objects')?.get('card')).toBe(
      'Charge.PaymentMethodDetails.Card',
    )
    expect(declaredAt('2022-08-01', 'Charge.PaymentMethodDetails.Card', 'objects')?.has('regulated_status')).toBe(false)
    expect(declaredAt(CURRENT_VERSION, 'Charge.PaymentMethodDetails.Card', 'objects')?.get('regulated_status')).toBe('required')
    expect(declaredAt('2024-09-30.acacia', 'Price.Recurring', 'objects')?.get('aggregate_usage')).toBe('required')
    expect(declaredAt(CURRENT_VERSION, 'Price.Recurring', 'objects')?.has('aggregate_usage')).toBe(false)
    expect(subTypesAt(CURRENT_VERSION, 'PaymentIntentCreateParams', 'params')?.get('payment_method_options')).toBe(
      'PaymentIntentCreateParams.PaymentMethodOptions',
    )
    // An index signature (metadata) is nobody's sub-object: its keys are the caller's.
    expect(subTypesAt(CURRENT_VERSION, 'Invoice', 'objects')?.has('metadata')).toBe(false)
  })
  it('know the operations later versions removed, each with the last version that had it and a path the current catalogue lacks', () => {
    const retired = retiredOperations()
    expect(retired['invoices.retrieveUpcoming']).toMatchObject({
      method: 'GET',
      path: '/v1/invoices/upcoming',
      params: 'InvoiceRetrieveUpcomingParams',
      last: '2025-02-24.acacia',
    })
    expect(retired['subscriptionItems.createUsageRecord']?.path).toBe('/v1/subscription_items/:subscription_item/usage_records')
    const current = new Set(operations().map((op) => `${op.method} ${op.path.replace(/:\w+/g, ':')}`))
    const served = new Set(servedVersions().map((v) => v.version))
    for (const op of Object.values(retired)) {
      expect(current.has(`${op.method} ${op.path.replace(/:\w+/g, ':')}`)).toBe(false)
      expect(served.has(op.last)).toBe(true)
    }
  })
})
