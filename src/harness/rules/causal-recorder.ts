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
  /** The recorder whose run this context belongs to. */
  readonly owner: CausalRecorder
  /** The delivery's raw body (none outside deliveries); parsed only when an effect asks. */
  readonly raw?: string
  // The delivery's body already parsed by the receiver (undefined: parse `raw` when needed).
  readonly parsed?: unknown
  event?: HandledEvent | null
  /** What the app last read from the API in this context, by object id. */
  readonly reads: Map<string, ObjectState>
  /** API reads of this context that failed (no 2xx, no answer, no readable body): a refusal then is the dependency's. */
  failedReads: number
  /** The status the app answered the delivery with, once it has: work of the delivery after it is not durable. */
  answered?: number
}

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

function parseEvent(raw: string, parsed: unknown): HandledEvent | null {
  try {
    const e = (parsed ?? JSON.parse(raw)) as { id?: unknown; type?: unknown; data?: { object?: unknown } }
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
 * One storage for every recorder: Node propagates each enabled `AsyncLocalStorage` into every new
 * promise, so a storage per run would make each later run pay for all earlier ones. A frame names
 * its recorder, so one run never sees another's.
 */
const CONTEXT = new AsyncLocalStorage<Frame>()

/**
 * Recorders whose run is under way. An enabled storage makes node run a hook at every promise the
 * process makes (about twice the cost of a bare await), for the rest of the process; it is turned
 * off when the last run closes its recorder, and `run` turns it on again for the next.
 */
let open = 0

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
  private readonly outside: Frame = { owner: this, reads: new Map(), failedReads: 0 }

  #closed = false

  constructor(private readonly sim: Simulator) {
    this.record = this.record.bind(this)
    open += 1
  }

  /**
   * Ends the recorder's run: once no run is under way, the storage is turned off, so code after the
   * runs (the rest of a test file) does not pay for it. An effect recorded after its run has closed
   * is recorded without its delivery.
   */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    open -= 1
    if (open === 0) CONTEXT.disable()
  }

  private frame(): Frame {
    const store = CONTEXT.getStore()
    return store !== undefined && store.owner === this ? store : this.outside
  }

  /**
   * Runs the app's handling of one delivery in its own context; answers how many of its API reads
   * failed. `parsed`: the body already parsed by the caller (`JSON.parse(raw)`), so it is not
   * parsed again when the app records an effect.
   */
  async handling<T>(
    raw: string,
    handle: () => Promise<T>,
    parsed?: unknown,
  ): Promise<{ readonly result: T; readonly failedReads: number }> {
    const frame: Frame = { owner: this, raw, parsed, reads: new Map(), failedReads: 0 }
    const result = await CONTEXT.run(frame, handle)
    frame.answered = result instanceof Response ? result.status : 500
    return { result, failedReads: frame.failedReads }
  }

  /**
   * Notes, in the caller's delivery context, that the app has answered it (an app in another
   * process answers before `handling` returns, while the harness waits for what it left running).
   */
  answeredWith(status: number): void {
    const frame = this.frame()
    if (frame !== this.outside && frame.raw !== undefined) frame.answered = status
  }

  /** Runs `act` in a context of its own outside any delivery (a page the customer opens): its reads are its own. */
  elsewhere<T>(act: () => T): T {
    return CONTEXT.run({ owner: this, reads: new Map(), failedReads: 0 }, act)
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
      // Any answer but a 2xx, or a body that cannot be read, is a read that failed: the app could not know.
      if (!res.ok) {
        frame.failedReads += 1
        return res
      }
      const json = res.json.bind(res)
      const text = res.text.bind(res)
      res.json = async () => {
        const body: unknown = await json().catch((error: unknown) => {
          frame.failedReads += 1
          throw error
        })
        noteRead(frame, body)
        return body
      }
      res.text = async () => {
        const body = await text().catch((error: unknown) => {
          frame.failedReads += 1
          throw error
        })
        try {
          noteRead(frame, JSON.parse(body))
        } catch {
          // Not JSON: it names no object.
        }
        return body
      }
      return res
    }
  }

  record(kind: string, key: string, detail?: EffectDetail): void {
    const frame = this.frame()
    if (frame.raw !== undefined) frame.event ??= parseEvent(frame.raw, frame.parsed)
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
      // Only when it happened, so the entries of apps that finish before answering stay as they were.
      ...(frame.answered === undefined ? {} : { answeredBefore: frame.answered }),
    })
  }
}
