import { AsyncLocalStorage } from 'node:async_hooks'
import type { Simulator } from '#simulator/index.js'
import type { EffectDetail, EffectRecorder } from './effect-recorder.js'
import { type ObjectState, objectState, providerState } from './object-state.js'

/** The delivered event an app was handling: its id, type and the state of the object in it. */
export interface HandledEvent {
  readonly id: string
  readonly type: string
  readonly object: ObjectState | null
}

/** One context the app acts in: a delivery it handles, or everything outside deliveries. */
interface Frame {
  /** The delivery's raw body (none outside deliveries); parsed only when an effect asks. */
  readonly raw?: string
  event?: HandledEvent | null
  /** What the app last read from the API in this context, by object id. */
  readonly reads: Map<string, ObjectState>
  /** API reads of this context that failed (5xx, 429, no answer): a refusal then is the dependency's. */
  failedReads: number
}

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

function parseEvent(raw: string): HandledEvent | null {
  try {
    const e = JSON.parse(raw) as { id?: unknown; type?: unknown; data?: { object?: unknown } }
    if (typeof e.id !== 'string') return null
    return { id: e.id, type: String(e.type), object: objectState(e.data?.object) ?? null }
  } catch {
    return null
  }
}

/** Notes the objects a response body names (the object itself, or a list's items). */
function noteRead(frame: Frame, body: unknown): void {
  const one = objectState(body)
  if (one !== undefined) frame.reads.set(String(one.id), one)
  const items = (body as { data?: unknown } | null)?.data
  if (!Array.isArray(items)) return
  for (const item of items) {
    const s = objectState(item)
    if (s !== undefined) frame.reads.set(String(s.id), s)
  }
}

/**
 * The effect recorder a flow run gives the app, with causal context: which delivery the app was
 * handling when it recorded an effect (tracked with `AsyncLocalStorage` around the handler call),
 * what it last read from the API in that context (its `env.fetch` is wrapped to note the objects a
 * response body names, only when the app reads the body), and the provider's true state of the
 * effect's object at that instant. Nothing is parsed or looked up until an effect is recorded.
 *
 * @example
 * const causal = new CausalRecorder(sim)
 * const env = { ...env, fetch: causal.wrapFetch(sim.fetch), effects: causal }
 * const { response } = await causal.handling(raw, () => client.handler(request))
 */
export class CausalRecorder implements EffectRecorder {
  private readonly context = new AsyncLocalStorage<Frame>()
  private readonly outside: Frame = { reads: new Map(), failedReads: 0 }

  constructor(private readonly sim: Simulator) {
    this.record = this.record.bind(this)
  }

  private frame(): Frame {
    return this.context.getStore() ?? this.outside
  }

  /** Runs the app's handling of one delivery in its own context; answers how many of its API reads failed. */
  async handling<T>(raw: string, handle: () => Promise<T>): Promise<{ readonly result: T; readonly failedReads: number }> {
    const frame: Frame = { raw, reads: new Map(), failedReads: 0 }
    const result = await this.context.run(frame, handle)
    return { result, failedReads: frame.failedReads }
  }

  /** Runs `act` in a context of its own outside any delivery (a page the customer opens): its reads are its own. */
  elsewhere<T>(act: () => T): T {
    return this.context.run({ reads: new Map(), failedReads: 0 }, act)
  }

  /** `fetch` that notes, in the caller's context, what the app reads and which reads fail. */
  wrapFetch(fetch: Fetch): Fetch {
    return async (input, init) => {
      const frame = this.frame()
      let res: Response
      try {
        res = await fetch(input, init)
      } catch (error) {
        frame.failedReads += 1
        throw error
      }
      if (res.status >= 500 || res.status === 429) frame.failedReads += 1
      else if (res.ok) {
        const json = res.json.bind(res)
        const text = res.text.bind(res)
        res.json = async () => {
          const body: unknown = await json()
          noteRead(frame, body)
          return body
        }
        res.text = async () => {
          const body = await text()
          try {
            noteRead(frame, JSON.parse(body))
          } catch {
            // Not JSON: it names no object.
          }
          return body
        }
      }
      return res
    }
  }

  record(kind: string, key: string, detail?: EffectDetail): void {
    const frame = this.frame()
    if (frame.raw !== undefined) frame.event ??= parseEvent(frame.raw)
    const event = frame.event ?? null
    const k = String(key)
    const read = frame.reads.get(k) ?? null
    // What the app could know of the object: its own read in this context, else the event it handles.
    const basis = read ?? (event?.object?.id === k ? event.object : null)
    this.sim.service.kernel.trace.append('harness.rule.effect', {
      kind: String(kind),
      key: k,
      detail: detail ?? null,
      event,
      read,
      basis,
      provider: providerState(this.sim, k) ?? null,
    })
  }
}
