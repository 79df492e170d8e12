import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { catalogue, deref, matchOperation, objectType, operation, operations, typeShape } from '../../src/catalogue/index.js'
import type { Shape } from '../../src/catalogue/types.js'

const repo = join(import.meta.dirname, '..', '..')
const generated = join(repo, 'src', 'catalogue', 'generated')

/** Every `ref` name a shape mentions. */
function refs(shape: Shape, out: string[] = []): string[] {
  switch (shape.t) {
    case 'ref':
      out.push(shape.name)
      break
    case 'array':
    case 'map':
      refs(shape.of, out)
      break
    case 'union':
      for (const s of shape.of) refs(s, out)
      break
    case 'object':
      for (const f of Object.values(shape.fields)) refs(f.shape, out)
      break
    case 'expandable':
      refs(shape.object, out)
      break
  }
  return out
}

describe('the operation catalogue', () => {
  it('regenerates byte for byte from the pinned client', { timeout: 180_000 }, () => {
    const out = mkdtempSync(join(tmpdir(), 'catalogue-'))
    try {
      execFileSync(process.execPath, ['--import', 'tsx', join(repo, 'scripts', 'generate-catalogue.ts'), out], {
        cwd: repo,
        stdio: 'pipe',
      })
      // resource-data.json and the version facts have generators of their own (the provider's
      // fixtures; the client's releases, checked in test/versions).
      const files = readdirSync(generated)
        .filter((f) => f !== 'resource-data.json' && !f.startsWith('version'))
        .sort()
      expect(readdirSync(out).sort()).toEqual(files)
      for (const file of files) {
        expect(readFileSync(join(out, file), 'utf8'), `${file} differs: run npm run catalogue`).toBe(
          readFileSync(join(generated, file), 'utf8'),
        )
      }
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  })

  it('holds every operation of the client, each with a verb and a /v1 or /v2 path', () => {
    const all = operations()
    console.log(`catalogue: ${all.length} operations, ${Object.keys(catalogue().types).length} types`)
    expect(all.length).toBeGreaterThanOrEqual(640)
    expect(new Set(all.map((op) => op.name)).size).toBe(all.length)
    for (const op of all) {
      expect(['GET', 'POST', 'DELETE']).toContain(op.method)
      expect(op.path).toMatch(/^\/v[12]\//)
      expect(op.api).toBe(op.path.slice(1, 3))
      expect(op.path.match(/:(\w+)/g)?.map((p) => p.slice(1)) ?? []).toEqual(op.pathParams)
    }
    expect([...all.map((op) => op.name)]).toEqual([...all.map((op) => op.name)].sort())
  })

  it('resolves every params type, returned type and ref', () => {
    const { types, operations: all, objects } = catalogue()
    const missing: string[] = []
    for (const op of all) {
      if (op.params && !types[op.params]) missing.push(`${op.name} params ${op.params}`)
      if ('type' in op.returns && op.returns.type && !types[op.returns.type])
        missing.push(`${op.name} returns ${op.returns.type}`)
    }
    for (const [name, shape] of Object.entries(types)) {
      for (const ref of refs(shape)) if (!types[ref]) missing.push(`${name} -> ${ref}`)
    }
    for (const [value, name] of Object.entries(objects)) if (!types[name]) missing.push(`object ${value} -> ${name}`)
    expect(missing).toEqual([])
  })

  it('reads customers.create params as the client declares them', () => {
    const op = operation('customers.create')!
    expect(op).toMatchObject({ method: 'POST', path: '/v1/customers', params: 'CustomerCreateParams', api: 'v1', host: 'api' })
    expect(op.returns).toEqual({ kind: 'object', type: 'Customer' })
    const params = typeShape('CustomerCreateParams')!
    if (params.t !== 'object') throw new Error('CustomerCreateParams is not an object')
    expect(params.fields.email).toEqual({ shape: { t: 'string' }, optional: true })
    // Emptyable<AddressParam>: the object, or '' to unset.
    expect(params.fields.address?.shape).toEqual({
      t: 'union',
      of: [
        { t: 'literal', value: '' },
        { t: 'ref', name: 'AddressParam' },
      ],
    })
    expect(params.fields.metadata?.optional).toBe(true)
    const metadata = params.fields.metadata!.shape
    expect(metadata.t === 'union' && metadata.of).toContainEqual({ t: 'literal', value: '' })
    const map = deref({ t: 'ref', name: 'MetadataParam' })
    expect(map.t).toBe('map')
    expect(map.t === 'map' && map.of.t === 'union' && map.of.of).toContainEqual({ t: 'string' })
  })

  it('reads the Customer object with nested, nullable and expandable fields', () => {
    const customer = typeShape('Customer')!
    if (customer.t !== 'object') throw new Error('Customer is not an object')
    expect(customer.fields.object?.shape).toEqual({ t: 'literal', value: 'customer' })
    expect(customer.fields.email).toEqual({ shape: { t: 'string' }, nullable: true })
    expect(customer.fields.invoice_settings?.shape).toEqual({ t: 'ref', name: 'Customer.InvoiceSettings' })
    const settings = typeShape('Customer.InvoiceSettings')!
    expect(settings.t === 'object' && settings.fields.default_payment_method).toEqual({
      shape: { t: 'expandable', object: { t: 'ref', name: 'PaymentMethod' } },
      nullable: true,
    })
    expect(objectType('customer')).toBe('Customer')
    expect(objectType('v2.billing.meter_event')).toBe('V2.Billing.MeterEvent')
    expect(operation('customers.retrieve')?.returns).toEqual({
      kind: 'object',
      type: 'Customer',
      oneOf: ['Customer', 'DeletedCustomer'],
    })
  })

  it('reads list, search and range params', () => {
    expect(operation('customers.list')?.returns).toEqual({ kind: 'list', type: 'Customer' })
    expect(operation('v2.core.eventDestinations.list')?.returns).toEqual({ kind: 'list', type: 'V2.Core.EventDestination' })
    expect(operation('customers.search')).toMatchObject({
      path: '/v1/customers/search',
      returns: { kind: 'search', type: 'Customer' },
    })
    for (const op of operations())
      if (/\.list\w*$/.test(op.name) && op.method === 'GET') expect(op.returns.kind, op.name).toBe('list')
    const list = typeShape('CustomerListParams')!
    if (list.t !== 'object') throw new Error('CustomerListParams is not an object')
    expect(list.fields.limit).toEqual({ shape: { t: 'integer' }, optional: true })
    const created = list.fields.created!.shape
    expect(created.t).toBe('union')
    expect(created.t === 'union' && created.of).toContainEqual({ t: 'integer' })
    const range = deref({ t: 'ref', name: 'RangeQueryParam' })
    expect(range.t === 'object' && Object.keys(range.fields)).toEqual(['gt', 'gte', 'lt', 'lte'])
  })

  it('names v2, test helper and nested operations as the client mounts them, with their hosts', () => {
    expect(operation('v2.billing.meterEvents.create')).toMatchObject({
      method: 'POST',
      path: '/v2/billing/meter_events',
      api: 'v2',
      params: 'V2.Billing.MeterEventCreateParams',
      returns: { kind: 'object', type: 'V2.Billing.MeterEvent' },
    })
    expect(operation('v2.billing.meterEventStream.create')).toMatchObject({
      path: '/v2/billing/meter_event_stream',
      host: 'meter_events',
    })
    expect(operation('v2.billing.meterEventSession.create')?.returns).toEqual({
      kind: 'object',
      type: 'V2.Billing.MeterEventSession',
    })
    expect(operation('files.create')?.host).toBe('files')
    expect(
      operations()
        .filter((op) => op.host === 'meter_events')
        .map((op) => op.name),
    ).toEqual(['v2.billing.meterEventStream.create'])
    expect(operation('testHelpers.testClocks.advance')).toMatchObject({
      method: 'POST',
      path: '/v1/test_helpers/test_clocks/:id/advance',
    })
    expect(operation('customers.retrieveSource')?.pathParams).toEqual(['customerId', 'id'])
    expect(operation('v2.core.accounts.persons.list')?.path).toBe('/v2/core/accounts/:accountId/persons')
    expect(operation('billing.meters.create')?.returns).toEqual({ kind: 'object', type: 'Billing.Meter' })
  })

  it('matches concrete paths, preferring literal segments', () => {
    expect(matchOperation('GET', '/v1/customers/search?query=x')?.operation.name).toBe('customers.search')
    expect(matchOperation('GET', '/v1/customers/cus_1')).toMatchObject({
      operation: { name: 'customers.retrieve' },
      pathParams: { id: 'cus_1' },
    })
    expect(matchOperation('delete', '/v1/customers/cus_1/')?.operation.name).toBe('customers.del')
    expect(matchOperation('POST', '/v2/billing/meter_events')?.operation.name).toBe('v2.billing.meterEvents.create')
    expect(matchOperation('GET', '/v1/account')?.operation.name).toBe('accounts.retrieveCurrent')
    expect(matchOperation('GET', '/v1/nothing_here')).toBeUndefined()
    expect(matchOperation('GET', '/v1/customers/')?.operation.name).toBe('customers.list')
    // Every operation's own template, with its placeholders filled, finds an operation with that template.
    for (const op of operations()) {
      const concrete = op.path.replace(/:(\w+)/g, 'x_1')
      const found = matchOperation(op.method, concrete)!
      expect(found.operation.method).toBe(op.method)
    }
  })
})

describe('the rules and the error table', () => {
  it('quotes the spec numbers once', async () => {
    const rules = await import('../../src/catalogue/rules.js')
    expect(rules.METER_EVENT_MAX_AGE_DAYS).toBe(35)
    expect(rules.METER_EVENT_MAX_LEAD_MS).toBe(5 * 60_000)
    expect(rules.SESSION_VALIDITY_MS).toBe(15 * 60_000)
    expect(rules.MAX_WEBHOOK_ENDPOINTS).toBe(16)
    expect(rules.SIGNATURE_TOLERANCE_SECONDS).toBe(300)
    expect(rules.GLOBAL_RATE).toEqual({ live: 100, test: 25 })
    expect(rules.READS_PER_TRANSACTION * 100).toBe(50_000) // the spec's example
  })

  it('gives every code a status, a type, a message and a provider doc_url', async () => {
    const { ERRORS, errorDocUrl, errorMessage } = await import('../../src/catalogue/errors.js')
    const codes = Object.keys(ERRORS)
    expect(codes).toEqual([...codes].sort())
    for (const spec of [
      'archived_meter',
      'duplicate_meter_event',
      'no_meter',
      'payload_invalid_value',
      'payload_no_customer_defined',
    ]) {
      expect(ERRORS).toHaveProperty(spec)
    }
    expect(ERRORS.too_many_concurrent_requests.status).toBe(409)
    expect(ERRORS.billing_meter_event_session_expired.status).toBe(401)
    expect(ERRORS.lock_timeout).toMatchObject({ status: 429, shouldRetry: true })
    expect(ERRORS.not_implemented).toMatchObject({ status: 501, type: 'invalid_request_error', shouldRetry: false })
    expect(errorDocUrl('resource_missing')).toBe('https://docs.stripe.com/error-codes/resource-missing')
    expect(errorMessage('resource_missing', { kind: 'customer', id: 'cus_1' })).toBe("No such customer: 'cus_1'")
    // Every literal code the sources emit is in the table.
    const { execFileSync: run } = await import('node:child_process')
    const emitted = new Set(
      run('grep', ['-rhoE', "code: '[a-z_]+'", join(repo, 'src', 'domain'), join(repo, 'src', 'http')], { encoding: 'utf8' })
        .split('\n')
        .map((l) => l.slice("code: '".length, -1))
        .filter((c) => c && c !== 'custom' && c !== 'generic_decline'),
    )
    expect([...emitted].filter((c) => !(c in ERRORS)).sort()).toEqual([])
  })
})
