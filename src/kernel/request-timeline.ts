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
  /** Takes `key` for `request`; false if `capacity` other in-flight requests (default 1) hold it. */
  hold(request: InFlightRequest, key: string, capacity?: number): boolean
  release(request: InFlightRequest, key: string): void
  holder(key: string): InFlightRequest | undefined
  readonly active: ReadonlySet<InFlightRequest>
}

export function createRequestTimeline(): RequestTimeline {
  const active = new Set<InFlightRequest>()
  // Holders of each key in arrival order: the first is the one `holder` names.
  const held = new Map<string, InFlightRequest[]>()
  const drop = (key: string, r: InFlightRequest) => {
    const list = held.get(key)
    if (list === undefined) return
    const i = list.indexOf(r)
    if (i >= 0) list.splice(i, 1)
    if (list.length === 0) held.delete(key)
  }
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
      for (const key of r.holds) drop(key, r)
      r.holds.clear()
    },
    hold(r, key, capacity = 1) {
      const list = held.get(key) ?? []
      if (list.includes(r)) return true
      if (list.length >= capacity) return false
      list.push(r)
      held.set(key, list)
      r.holds.add(key)
      return true
    },
    release(r, key) {
      drop(key, r)
      r.holds.delete(key)
    },
    holder: (key) => held.get(key)?.[0],
    active,
  }
}
