import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type DeclaredTable, serveDeclared } from '../../src/http/declared-routes/declared-dispatch.js'
import type { DeclaredInput, DeclaredRoute } from '../../src/http/declared-routes/declared-route.js'
import { DeclaredRouter } from '../../src/http/declared-routes/declared-router.js'

type Route = DeclaredRoute<DeclaredInput, unknown>
const route = (method: 'GET' | 'POST', path: string, extra: Partial<Route> = {}): Route => ({
  method,
  path,
  handler: (call) => ({ path, params: call.path, query: call.query, body: call.body }),
  ...extra,
})

describe('declared router', () => {
  const routes = [route('GET', '/a/b'), route('POST', '/c/{id}/done'), route('POST', '/rest/{tail*}')]

  it('matches plain paths, named segments (decoded) and the rest of a path (as sent)', () => {
    const router = new DeclaredRouter(routes)
    expect(router.find('GET', '/a/b').route).toBe(routes[0])
    expect(router.find('POST', '/c/x%20y/done')).toEqual({ route: routes[1], params: { id: 'x y' } })
    expect(router.find('POST', '/rest/p/q%2F')).toEqual({ route: routes[2], params: { tail: 'p/q%2F' } })
  })

  it('tells a path served by another method (405) from an unknown one (404)', () => {
    const router = new DeclaredRouter(routes)
    expect(router.find('POST', '/a/b')).toEqual({ route: undefined, known: true })
    expect(router.find('GET', '/c/1/done')).toEqual({ route: undefined, known: true })
    expect(router.find('GET', '/nowhere')).toEqual({ route: undefined, known: false })
  })

  it('strictly, an empty or malformed segment matches nothing; leniently it is kept', () => {
    const strict = new DeclaredRouter(routes)
    expect(strict.find('POST', '/c//done').route).toBeUndefined()
    expect(strict.find('POST', '/c/%/done').route).toBeUndefined()
    const lenient = new DeclaredRouter(routes, 'lenient')
    expect(lenient.find('POST', '/c//done')).toEqual({ route: routes[1], params: { id: '' } })
    expect(lenient.find('POST', '/c/%/done')).toEqual({ route: routes[1], params: { id: '%' } })
    expect(lenient.find('GET', '/a/%62').route).toBe(routes[0])
  })
})

describe('serveDeclared', () => {
  const routes: Route[] = [
    route('GET', '/list', { query: z.strictObject({ n: z.coerce.number().int().optional() }) }),
    route('POST', '/make', { body: z.strictObject({ name: z.string() }), bodyHint: 'expected {"name": "..."}' }),
  ]
  const table: DeclaredTable<null, DeclaredInput, unknown> = {
    router: new DeclaredRouter(routes),
    call: (_context, input) => input,
    unknown: (method, path, known) => ({ unknown: `${method} ${path}`, known }),
    refuse: (error) => ({ refused: (error as Error).message }),
  }
  const serve = (method: string, target: string, text = '') => {
    const url = new URL(`http://127.0.0.1${target}`)
    return serveDeclared(table, null, { method, path: url.pathname, url, text: () => text })
  }

  it('validates the query of a GET and the JSON body of a POST before the handler runs', async () => {
    expect(await serve('GET', '/list?n=3')).toMatchObject({ query: { n: 3 } })
    expect(await serve('POST', '/make', '{"name":"x"}')).toMatchObject({ body: { name: 'x' } })
    expect(await serve('GET', '/list?n=3&n=4')).toEqual({ refused: 'n: given more than once' })
    expect(await serve('POST', '/make?x=1', '{}')).toEqual({ refused: 'POST /make takes no query parameters' })
    expect(await serve('POST', '/make', '{')).toMatchObject({
      refused: expect.stringMatching(/^expected \{"name": "..."\}: body is not JSON/),
    })
    expect(await serve('DELETE', '/make')).toEqual({ unknown: 'DELETE /make', known: true })
  })
})
