// The request path's steps, each driven alone over a context made by hand: no simulator, no
// service, only what the step reads.
import { describe, expect, it } from 'vitest'
import type { Account } from '../../src/domain/connect/account.js'
import type { Service } from '../../src/domain/service.js'
import { ServiceError } from '../../src/domain/service-error.js'
import type { IdempotencyStore } from '../../src/http/idempotency.js'
import { idempotencyKeyStep } from '../../src/http/pipeline/idempotency-key-step.js'
import { runPipeline } from '../../src/http/pipeline/pipeline.js'
import { PipelineContext, type PipelineHost } from '../../src/http/pipeline/pipeline-context.js'
import { routeStep } from '../../src/http/pipeline/route-step.js'
import { versionStep } from '../../src/http/pipeline/version-step.js'
import { headerNames } from '../../src/http/prefixed-headers.js'
import type { Principal, Route } from '../../src/http/route.js'
import { RouteTable } from '../../src/http/route-table.js'
import { createIds } from '../../src/kernel/ids.js'
import type { InFlightRequest } from '../../src/kernel/request-timeline.js'
import { createRng } from '../../src/kernel/rng.js'

const routes: Route[] = [
  { method: 'GET', path: '/v1/widgets/:id', operation: 'widgets.retrieve', handle: () => ({}) },
  { method: 'POST', path: '/v1/widgets/:id', operation: 'widgets.update', handle: () => ({}) },
]

const host: PipelineHost = {
  // The steps driven here never reach the service or the idempotency store.
  service: undefined as unknown as Service,
  idempotency: undefined as unknown as IdempotencyStore,
  names: headerNames('Service'),
  routes: new RouteTable(routes),
  requestIds: createIds(createRng(1).stream('request-ids')),
}

function contextOf(method: string, path: string, headers: Record<string, string> = {}): PipelineContext {
  const flight: InFlightRequest = {
    id: 1,
    arrivedAt: 0,
    operation: undefined,
    account: undefined,
    mode: undefined,
    holds: new Set(),
  }
  return new PipelineContext(
    host,
    { method, url: new URL(`https://api.service.test${path}`), headers: new Headers(headers), text: '' },
    flight,
  )
}

function refusalOf(run: () => void): ServiceError {
  try {
    run()
  } catch (error) {
    if (error instanceof ServiceError) return error
    throw error
  }
  throw new Error('the step did not refuse')
}

const principal = { account: { id: 'acct_1', apiVersion: '2026-10-28.endive' } as Account, mode: 'test' } as Principal

describe('routeStep', () => {
  it('finds the route and its path params and names the operation on the request in flight', () => {
    const ctx = contextOf('GET', '/v1/widgets/wid_1')
    routeStep(ctx)
    expect(ctx.route?.operation).toBe('widgets.retrieve')
    expect(ctx.params).toEqual({ id: 'wid_1' })
    expect(ctx.flight.operation).toBe('widgets.retrieve')
  })

  it('refuses a method the path does not serve with 405 listing the methods it does', () => {
    const error = refusalOf(() => routeStep(contextOf('DELETE', '/v1/widgets/wid_1')))
    expect(error.status).toBe(405)
    expect(error.headers).toEqual({ Allow: 'GET, POST' })
  })

  it('refuses an unknown path with 404 url_unrecognized', () => {
    const error = refusalOf(() => routeStep(contextOf('GET', '/v1/gadgets')))
    expect([error.status, error.code]).toEqual([404, 'url_unrecognized'])
  })
})

describe('versionStep', () => {
  function pinned(version?: string): PipelineContext {
    const ctx = contextOf('GET', '/v1/widgets/wid_1', version === undefined ? {} : { 'Service-Version': version })
    routeStep(ctx)
    ctx.principal = principal
    return ctx
  }

  it("takes the account's default version when the request names none, and walks nothing at it", () => {
    const ctx = pinned()
    versionStep(ctx)
    expect(ctx.version).toBe('2026-10-28.endive')
    expect(ctx.walk).toBe(false)
  })

  it('keeps a well-formed version it does not serve on the context before refusing it, so the refusal echoes it', () => {
    const ctx = pinned('2011-01-01')
    const error = refusalOf(() => versionStep(ctx))
    expect(error.message).toBe('Invalid Service API version: 2011-01-01')
    expect(ctx.version).toBe('2011-01-01')
  })
})

describe('idempotencyKeyStep', () => {
  it('keeps a printable key for the steps after it', () => {
    const ctx = contextOf('POST', '/v1/widgets/wid_1', { 'Idempotency-Key': 'order-42' })
    idempotencyKeyStep(ctx)
    expect(ctx.idempotencyKey).toBe('order-42')
  })

  it('refuses a key the response could not echo before anything runs', () => {
    const ctx = contextOf('POST', '/v1/widgets/wid_1', { 'Idempotency-Key': 'x'.repeat(256) })
    expect(refusalOf(() => idempotencyKeyStep(ctx)).code).toBe('idempotency_key_invalid')
    expect(ctx.idempotencyKey).toBeUndefined()
  })
})

describe('runPipeline', () => {
  it('answers what a step throws in the error envelope, with a request id, and runs no later step', async () => {
    const ctx = contextOf('GET', '/v1/gadgets')
    let later = false
    await runPipeline(ctx, [
      routeStep,
      () => {
        later = true
      },
    ])
    expect(later).toBe(false)
    expect(ctx.answered).toBe(true)
    expect(ctx.status).toBe(404)
    expect(JSON.parse(ctx.text).error.code).toBe('url_unrecognized')
    expect(ctx.headers['Request-Id']).toMatch(/^req_/)
  })
})
