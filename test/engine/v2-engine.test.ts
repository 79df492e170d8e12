import { describe, expect, it } from 'vitest'
import { catalogueView } from '../../src/domain/engine/catalogue.js'
import type { ResourceDeclaration } from '../../src/domain/engine/declaration.js'
import { createEngine } from '../../src/domain/engine/engine.js'
import { createSimulator } from '../../src/index.js'

/** A plain v2 declaration, as a v2 resource without behaviour would be declared. */
const destinations: ResourceDeclaration = {
  type: 'V2.Core.EventDestination',
  object: 'v2.core.event_destination',
  noun: 'event destination',
  idPrefix: 'ed',
  touch: ['updated'],
  defaults: () => ({ description: '', metadata: {}, status: 'enabled', webhook_endpoint: {} }),
}

function setup() {
  const sim = createSimulator({ seed: 3, limits: false })
  const { kernel, events } = sim.service
  const engine = createEngine({ kernel, events, view: catalogueView, declarations: [destinations], ports: {} })
  const scope = { account: sim.platform.id, mode: 'test' as const }
  const origin = { requestId: null, idempotencyKey: null }
  const run = (operation: string, path: Record<string, string>, params: Record<string, unknown>) =>
    engine.run(operation, { scope, origin, path, params }) as Record<string, any>
  return { sim, engine, run }
}

const createParams = {
  name: 'hooks',
  type: 'webhook_endpoint',
  event_payload: 'thin',
  enabled_events: ['v1.billing.meter.no_meter_found'],
}

describe('the engine serves a v2 resource', () => {
  it('serves the v2 CRUD operations of a declared v2 type under the catalogue names', () => {
    const { engine } = setup()
    for (const name of ['create', 'retrieve', 'update', 'del', 'list']) {
      expect(engine.serves(`v2.core.eventDestinations.${name}`)).toBe(true)
    }
    expect(engine.serves('v2.core.eventDestinations.enable')).toBe(false)
  })

  it('renders timestamps as ISO 8601 with milliseconds and the namespaced object value', async () => {
    const { sim, run } = setup()
    await sim.clock.tickAsync(1234)
    const d = run('v2.core.eventDestinations.create', {}, createParams)
    expect(d.object).toBe('v2.core.event_destination')
    expect(d.id).toMatch(/^ed_/)
    expect(d.created).toBe(new Date(sim.clock.now).toISOString())
    expect(d.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(d.updated).toBe(d.created)
    await sim.clock.tickAsync(5000)
    const up = run('v2.core.eventDestinations.update', { id: d.id }, { name: 'renamed' })
    expect(up.name).toBe('renamed')
    expect(up.updated).toBe(new Date(sim.clock.now).toISOString())
    expect(up.created).toBe(d.created)
  })

  it('pages a v2 list with page tokens: newest first, next and previous urls, null at the ends', () => {
    const { run } = setup()
    const made = [1, 2, 3, 4, 5].map(() => run('v2.core.eventDestinations.create', {}, createParams).id as string)
    const first = run('v2.core.eventDestinations.list', {}, { limit: 2 })
    expect(Object.keys(first).sort()).toEqual(['data', 'next_page_url', 'previous_page_url'])
    expect(first.data.map((x: { id: string }) => x.id)).toEqual([made[4], made[3]])
    expect(first.previous_page_url).toBeNull()
    const page = new URL(first.next_page_url, 'https://x.test').searchParams.get('page') as string
    expect(first.next_page_url.startsWith('/v2/core/event_destinations?page=')).toBe(true)
    const second = run('v2.core.eventDestinations.list', {}, { page })
    expect(second.data.map((x: { id: string }) => x.id)).toEqual([made[2], made[1]])
    const back = new URL(second.previous_page_url, 'https://x.test').searchParams.get('page') as string
    expect(run('v2.core.eventDestinations.list', {}, { page: back }).data.map((x: { id: string }) => x.id)).toEqual([
      made[4],
      made[3],
    ])
    const third = new URL(second.next_page_url, 'https://x.test').searchParams.get('page') as string
    const last = run('v2.core.eventDestinations.list', {}, { page: third })
    expect(last.data.map((x: { id: string }) => x.id)).toEqual([made[0]])
    expect(last.next_page_url).toBeNull()
  })

  it('refuses a forged page token and a limit over 20 with 400, naming the param', () => {
    const { run } = setup()
    expect(() => run('v2.core.eventDestinations.list', {}, { page: 'garbage' })).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_page_token', param: 'page' }),
    )
    expect(() => run('v2.core.eventDestinations.list', {}, { limit: 21 })).toThrow(
      expect.objectContaining({ status: 400, param: 'limit' }),
    )
  })

  it('answers a missing object with 404 resource_missing in the v2 wording, and deletes to { id, object, deleted }', () => {
    const { run } = setup()
    expect(() => run('v2.core.eventDestinations.retrieve', { id: 'ed_missing' }, {})).toThrow(
      expect.objectContaining({ status: 404, code: 'resource_missing', message: "No such event destination: 'ed_missing'" }),
    )
    const d = run('v2.core.eventDestinations.create', {}, createParams)
    expect(run('v2.core.eventDestinations.del', { id: d.id }, {})).toEqual({
      id: d.id,
      object: 'v2.core.event_destination',
      deleted: true,
    })
    expect(() => run('v2.core.eventDestinations.retrieve', { id: d.id }, {})).toThrow(expect.objectContaining({ status: 404 }))
  })
})
