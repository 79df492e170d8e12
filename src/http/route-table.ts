import { operations } from '#catalogue/index.js'
import type { Route } from './route.js'
import { createRouter, type RouteMatch, type Router } from './router.js'
import { retiredRouter } from './routes/retired-routes.js'

/**
 * The paths the provider serves on its meter-events host (`meter-events.<domain>`): the meter event
 * stream and nothing else, read from the catalogue's `host` of each operation.
 */
let meterEventsPaths: ReadonlySet<string> | undefined
function meterEventsHostServes(path: string): boolean {
  meterEventsPaths ??= new Set(operations().flatMap((op) => (op.host === 'meter_events' ? [op.path] : [])))
  return meterEventsPaths.has(path)
}

/**
 * Whether a request is on the meter-events host for a path that host does not serve: nothing there
 * but the stream is known, as on the provider. Read from `href` (a stored string) rather than
 * `hostname` (a new string per request).
 *
 * @example
 * offMeterEventsHost('/v1/customers', 'https://meter-events.service.test/v1/customers') // true
 */
export function offMeterEventsHost(path: string, href: string): boolean {
  return href.startsWith('meter-events.', href.indexOf('//') + 2) && !meterEventsHostServes(path)
}

/**
 * Every route one handler serves, in the order a request is looked up: the service's own routes,
 * then the operations only older versions had. Built once per handler; each router is compiled
 * once per routes array and shared by every handler given the same array.
 *
 * @example
 * const table = new RouteTable(routes)
 * table.match('GET', '/v1/customers/cus_1')?.route.operation // 'customers.retrieve'
 */
export class RouteTable {
  readonly #own: Router

  constructor(routes: readonly Route[]) {
    this.#own = createRouter(routes)
  }

  /** The route of a request, or `undefined` when nothing serves it. */
  match(method: string, path: string): RouteMatch | undefined {
    // An operation of older versions only is looked up once no other route matches, so the
    // current version never reads its facts.
    return this.#own.match(method, path) ?? retiredRouter().match(method, path)
  }

  /** The methods served at a path, to tell 405 from 404. */
  allows(path: string): string[] {
    return this.#own.allows(path)
  }

  /**
   * An older version's literal path, which wins over a current placeholder at that version
   * (`/v1/invoices/upcoming` is not the retrieve of an invoice `upcoming` there).
   */
  older(method: string, path: string): RouteMatch | undefined {
    return retiredRouter().match(method, path)
  }
}
