/**
 * One request between its arrival and its response. While it is in flight it counts against
 * concurrency limits and keeps the keys it holds (a customer and meter pair, an object lock).
 */
export interface InFlightRequest {
  readonly id: number
  readonly arrivedAt: number
  operation: string | undefined
  account: string | undefined
  mode: string | undefined
  readonly holds: Set<string>
}

/**
 * The request time model: which requests are in flight at once. A request arrives when `sim.fetch`
 * is called and leaves when its response is handed back; requests whose flights overlap are
 * concurrent. With no service time, calls started together (`Promise.all`) overlap and sequential
 * awaits do not (see docs/request-time-model.md).
 *
 * @example
 * const r = timeline.arrive(clock.now)
 * timeline.hold(r, 'meter:cus_1') // false if another in-flight request holds it
 * timeline.finish(r)
 */
export interface RequestTimeline {
  arrive(now: number): InFlightRequest
  finish(request: InFlightRequest): void
  /** Takes `key` for `request`; false if another in-flight request holds it. */
  hold(request: InFlightRequest, key: string): boolean
  release(request: InFlightRequest, key: string): void
  holder(key: string): InFlightRequest | undefined
  readonly active: ReadonlySet<InFlightRequest>
}

export function createRequestTimeline(): RequestTimeline {
  const active = new Set<InFlightRequest>()
  const held = new Map<string, InFlightRequest>()
  let next = 0
  return {
    arrive(now) {
      const r: InFlightRequest = {
        id: next++,
        arrivedAt: now,
        operation: undefined,
        account: undefined,
        mode: undefined,
        holds: new Set(),
      }
      active.add(r)
      return r
    },
    finish(r) {
      active.delete(r)
      for (const key of r.holds) if (held.get(key) === r) held.delete(key)
      r.holds.clear()
    },
    hold(r, key) {
      const owner = held.get(key)
      if (owner !== undefined && owner !== r) return false
      held.set(key, r)
      r.holds.add(key)
      return true
    },
    release(r, key) {
      if (held.get(key) === r) held.delete(key)
      r.holds.delete(key)
    },
    holder: (key) => held.get(key),
    active,
  }
}
