import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readDeclarations, releasesFromChangelog } from '../../scripts/generate-versions.js'
import { operations } from '../../src/catalogue/index.js'
import {
  CURRENT_VERSION,
  declaredAt,
  fieldChanges,
  retiredOperations,
  servedVersions,
  subTypesAt,
} from '../../src/catalogue/versions.js'

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
            for (const f of fields) expect(f).toMatch(/^(\*|[a-z0-9_]+\??(:[A-Za-z0-9._|#]+)?)$/)
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

  it('walk fields whose type is a union: of several sub-types (their fields merged), or of one with an id or a string', () => {
    // `card: Card1 | Card2` (a card's number or its token) in clients up to 2023-10-16.
    const union = 'PaymentMethodCreateParams.Card1|PaymentMethodCreateParams.Card2'
    expect(subTypesAt('2023-08-16', 'PaymentMethodCreateParams', 'params')?.get('card')).toBe(union)
    const merged = declaredAt('2023-08-16', union, 'params')
    expect([...(merged?.keys() ?? [])]).toEqual(expect.arrayContaining(['number', 'exp_month', 'token']))
    // Which member a value is cannot be told: every merged field is optional, none is filled.
    expect([...(merged?.values() ?? [])].every((p) => p === 'optional')).toBe(true)
    expect(subTypesAt(CURRENT_VERSION, 'PaymentMethodCreateParams', 'params')?.get('card')).toBe('PaymentMethodCreateParams.Card')
    expect(fieldChanges('2023-08-16', 'PaymentMethodCreateParams', 'params')?.sub('card')?.dropped.has('networks')).toBe(true)
    // `rule: string | Rule` and `external_account: string | ExternalAccount`: the sub-type beside an id.
    expect(subTypesAt(CURRENT_VERSION, 'Charge.Outcome', 'objects')?.get('rule')).toBe('Charge.Outcome.Rule')
    expect(subTypesAt(CURRENT_VERSION, 'AccountCreateParams', 'params')?.get('external_account')).toBe(
      'AccountCreateParams.ExternalAccount',
    )
    // A union of object types (`Customer | DeletedCustomer`) is known by each one's `object`, not merged.
    expect(subTypesAt(CURRENT_VERSION, 'Charge', 'objects')?.has('customer')).toBe(false)
  })
  it('read an inline object literal as a sub-type of its own, and a union of sub-types as one merged type', () => {
    const pkg = mkdtempSync(join(tmpdir(), 'declarations-'))
    try {
      mkdirSync(join(pkg, 'types'))
      writeFileSync(
        join(pkg, 'types', 'Widgets.d.ts'),
        `declare module 'stripe' {
  namespace Stripe {
    interface Widget {
      id: string
      object: 'widget'
      size: { width: number; height?: number } | null
      part: Widget.Bolt | Widget.Nut
      owner: string | Customer
    }
    interface Customer { id: string; object: 'customer' }
    namespace Widget {
      interface Bolt { length: number }
      interface Nut { thread?: string; length: number }
    }
  }
}
`,
      )
      const { objects } = readDeclarations(pkg)
      expect(objects.Widget).toEqual(['id', 'object', 'owner', 'part:Widget.Bolt|Widget.Nut', 'size:Widget#size'])
      expect(objects['Widget#size']).toEqual(['height?', 'width'])
      expect(objects['Widget.Bolt|Widget.Nut']).toEqual(['length?', 'thread?'])
    } finally {
      rmSync(pkg, { recursive: true, force: true })
    }
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
