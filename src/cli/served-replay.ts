import { readFileSync } from 'node:fs'
import type { DeliveryTransport, TransportResult } from '#domain/index.js'
import { lowercaseHeaderReader } from '#http/index.js'
import { nextMacrotask } from '#kernel/index.js'
import { createSimulator, incomingExchangeOf, type Simulator } from '#simulator/index.js'
import { type AdminHost, withAdminApi } from './admin-api.js'
import { arrival } from './http-server.js'
import { installServeReceiverFaults } from './serve-faults.js'
import { setUpForwarding } from './serve-forwarding.js'
import type {
  RecordedEnd,
  RecordedReceiver,
  RecordedRequest,
  RecordedReset,
  SessionHeader,
  SessionLine,
} from './session-record.js'
import { UsageError } from './usage-error.js'

/** A session record (`serve --record`) read back, its lines sorted for replay. */
export interface SessionRecord {
  readonly header: SessionHeader
  /** In the order serve accepted them (their `serve.request` trace `seq`). */
  readonly requests: readonly RecordedRequest[]
  /** Indexed by the order the simulator posted them. */
  readonly receivers: readonly (RecordedReceiver | undefined)[]
  readonly resets: readonly RecordedReset[]
  readonly end: RecordedEnd | undefined
}

/**
 * Reads a session record; a file that is not one (no session line first, a line that is not JSON,
 * an unknown kind) is a usage error naming the line.
 *
 * @example
 * const record = readSessionRecord('session.jsonl')
 * record.requests.length // the requests serve accepted
 */
export function readSessionRecord(file: string): SessionRecord {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`--served: cannot read ${file}: ${(error as Error).message}`)
  }
  const lines: SessionLine[] = []
  for (const [i, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue
    let line: SessionLine
    try {
      line = JSON.parse(raw) as SessionLine
    } catch (error) {
      throw new UsageError(`--served: ${file}:${i + 1}: not JSON (${(error as Error).message})`)
    }
    if (!['session', 'request', 'receiver', 'reset', 'end'].includes(line?.kind))
      throw new UsageError(`--served: ${file}:${i + 1}: unknown line kind ${JSON.stringify(line?.kind)}`)
    lines.push(line)
  }
  const header = lines[0]
  if (header?.kind === 'session' && (header.version as number) === 1)
    throw new UsageError(
      `--served: ${file}: a version 1 session record ends with the older trace digest; record the session again with this version`,
    )
  if (header?.kind !== 'session' || header.version !== 2)
    throw new UsageError(
      `--served: ${file}: not a session record (its first line must be {"kind":"session","version":2,...}, written by serve --record)`,
    )
  const receivers: (RecordedReceiver | undefined)[] = []
  for (const line of lines) if (line.kind === 'receiver') receivers[line.n] = line
  return {
    header,
    requests: lines.flatMap((l) => (l.kind === 'request' ? [l] : [])).sort((a, b) => a.seq - b.seq),
    receivers,
    resets: lines.flatMap((l) => (l.kind === 'reset' ? [l] : [])),
    end: lines.find((l): l is RecordedEnd => l.kind === 'end'),
  }
}

/** Where a replay first answered differently from the served session. */
export interface Divergence {
  /** The request (`seq` of its `serve.request` entry), or undefined for the end of the session. */
  readonly seq: number | undefined
  readonly request: string
  readonly what: 'status' | 'body' | 'receiver' | 'trace hash' | 'trace length'
  readonly recorded: string
  readonly replayed: string
}

/** What `replayServedSession` found. */
export interface ServedReplayResult {
  readonly requests: number
  /** Requests answered with the recorded status (and, for the service API, the recorded body). */
  readonly matched: number
  readonly divergences: readonly Divergence[]
  /** The recorded end line's hash (undefined when serve did not stop cleanly) and the replay's. */
  readonly traceHash: { readonly recorded: string | undefined; readonly replayed: string }
  readonly ok: boolean
  /** The replayed simulator at the end (for inspection: its trace, state). */
  readonly sim: Simulator
}

/** A recorded webhook answer not given yet: its virtual answer time, the trace length it waits for, and its release. */
interface PendingAnswer {
  readonly at: number
  readonly len: number
  readonly release: () => void
}

/** One request's answer as the replay got it. */
interface Answer {
  readonly status: number
  readonly text: string
}

/** A replay in progress: the simulator served now (a reset replaces it) and what the replay found so far. */
class ServedReplay {
  readonly divergences: Divergence[] = []
  matched = 0
  sim: Simulator
  private posts = 0
  private resets = 0
  // Answers due by time but not yet by place: released before the request they preceded.
  private held: PendingAnswer[] = []
  // Every answer not given yet, due by time or not.
  private readonly pending = new Set<PendingAnswer>()
  readonly host: AdminHost
  readonly admin: (req: Request) => Promise<Response>

  constructor(readonly record: SessionRecord) {
    this.sim = this.build(record.header.start)
    this.host = this.adminHost()
    this.admin = withAdminApi(this.host)
  }

  /** A fresh simulator as serve built it, its webhook posts answered from the record. */
  build(start: number): Simulator {
    const { header } = this.record
    const sim = createSimulator({
      seed: header.seed,
      start,
      headerPrefix: header.header_prefix,
      ...(header.limits ? {} : { limits: false as const }),
    })
    if (header.forward !== undefined) setUpForwarding(sim, header.forward)
    installServeReceiverFaults(sim, this.transport(sim))
    return sim
  }

  /** The host the admin API is served on: it moves time and resets as serve's did. */
  private adminHost(): AdminHost {
    const replay = this
    return {
      get sim() {
        return replay.sim
      },
      clock: this.record.header.clock,
      // As serve moves time (its host's `advance`): due work in order of its virtual time, each step
      // settled before the next, so a replay takes the same path through a jump as the session did.
      async advance(ms) {
        await replay.sim.service.kernel.scheduler.advance(replay.sim.clock.now + ms)
        await replay.sim.settle()
      },
      async reset() {
        const next = replay.record.resets[replay.resets++]
        if (next === undefined) throw new Error('replay: the record has no start for this reset')
        replay.sim = replay.build(next.start)
        return replay.sim
      },
      async snapshot() {
        await replay.sim.settle()
        return { snapshot: replay.sim.snapshot(), file: undefined }
      },
    }
  }

  /** Webhook posts answered with the recorded answers, in the order the simulator posts them. */
  private transport(sim: Simulator): DeliveryTransport {
    return {
      post: (request) => {
        const recorded = this.record.receivers[this.posts++]
        if (recorded === undefined || recorded.url !== request.url) {
          this.divergences.push({
            seq: undefined,
            request: `webhook POST ${request.url}`,
            what: 'receiver',
            recorded: recorded === undefined ? 'no such post' : `POST ${recorded.url}`,
            replayed: `POST ${request.url}`,
          })
          return { kind: 'connect_error', message: 'replay: the served session made no such post' }
        }
        return this.answerWhenDue(sim, recorded)
      },
      // As serve's transport said: a receiver outside the process (every one serve posts to) was
      // timed on the wall clock, so its recorded answer, however late in virtual time, is the
      // answer; a time-out on the virtual clock here would turn a slow answer into a time-out.
      waitsOnClock: (url) => sim.receivers.get(url) !== undefined,
    }
  }

  /**
   * Answered once the virtual clock reaches the recorded answer time and the trace has as many
   * entries as when the answer came in (its place among requests of the same instant).
   */
  private answerWhenDue(sim: Simulator, recorded: RecordedReceiver): Promise<TransportResult> {
    return new Promise<TransportResult>((resolve) => {
      const answer: PendingAnswer = {
        at: recorded.answered,
        len: recorded.trace_length,
        release: () => {
          if (this.pending.delete(answer)) resolve(recorded.result)
        },
      }
      this.pending.add(answer)
      const due = () => {
        if (sim.trace.length >= answer.len) answer.release()
        else this.held.push(answer)
      }
      const wait = recorded.answered - sim.clock.now
      if (wait > 0) sim.clock.setTimeout(due, wait)
      else due()
    })
  }

  /**
   * Waits for `work` (a request answered, a jump) as serve did. Serve's wall clock moved on while
   * a request waited for a webhook answer (a route that settles, a test clock advancing), so the
   * answer came in at a later virtual time; the replay's clock moves only when told. When `work`
   * has stayed pending through many macrotasks and the earliest answer not given yet holds it, the
   * clock moves to that answer's time (due work firing on the way, as the wall driver fired it), or,
   * due by time but held by place (requests served meanwhile, replayed only after this one), it is
   * given at once. A replay then goes on, and says where it diverged, rather than hanging.
   */
  async during<T>(work: Promise<T>): Promise<T> {
    let done = false
    const finished = work.finally(() => {
      done = true
    })
    const idle = async () => {
      for (let i = 0; i < 64 && !done; i++) await nextMacrotask()
    }
    for (;;) {
      await Promise.race([finished, idle()])
      if (done) return finished
      const next = [...this.pending].sort((a, b) => a.at - b.at)[0]
      if (next === undefined) return finished
      const { clock } = this.sim
      if (next.at > clock.now) await clock.tickAsync(next.at - clock.now)
      else {
        this.held = this.held.filter((a) => a !== next)
        next.release()
      }
    }
  }

  /** Releases the held answers whose place has come, until none is left to release. */
  async release(): Promise<void> {
    for (;;) {
      const length = this.sim.trace.length
      const ready = this.held.filter((a) => a.len <= length)
      if (ready.length === 0) return
      this.held = this.held.filter((a) => a.len > length)
      for (const a of ready) a.release()
      // A real macrotask: the delivery records the attempt in the promise callbacks of the answer.
      await new Promise<void>((done) => setImmediate(done))
    }
  }

  /** The wall driver's catch-up: the clock ticks to the target, firing due work in order on the way. */
  async toward(at: number): Promise<void> {
    if (at > this.sim.clock.now) await this.sim.clock.tickAsync(at - this.sim.clock.now)
  }

  /** Sends one recorded request again: admin ones through the admin API, the rest through the exchange. */
  async send(r: RecordedRequest): Promise<Answer> {
    const hasBody = r.method !== 'GET' && r.method !== 'HEAD' && r.body !== ''
    // The host serve was addressed by: answers that name it (an error's `request_log_url`) replay byte for byte.
    const url = `http://${r.headers.host ?? '127.0.0.1'}${r.path}`
    if (r.admin) {
      const type = r.headers['content-type']
      const response = await this.admin(
        new Request(url, {
          method: r.method,
          headers: type === undefined ? {} : { 'content-type': type },
          ...(hasBody ? { body: r.body } : {}),
        }),
      )
      return { status: response.status, text: await response.text() }
    }
    try {
      // As serve answered it: the URL parsed once, the headers read as node gave them.
      const answer = await incomingExchangeOf(this.sim)({
        method: r.method,
        url: new URL(url),
        headers: lowercaseHeaderReader(r.headers),
        text: hasBody ? r.body : '',
      })
      return { status: answer.status, text: answer.text }
    } catch (error) {
      // An indeterminate answer (a fault): serve recorded it as status 0 with the error's message.
      return { status: 0, text: String((error as Error)?.message ?? error) }
    }
  }

  /** Compares an answer with the recorded one. */
  compare(r: RecordedRequest, { status, text }: Answer): void {
    const name = `${r.method} ${r.path}`
    if (status !== r.status)
      this.divergences.push({ seq: r.seq, request: name, what: 'status', recorded: String(r.status), replayed: String(status) })
    // Admin answers describe the server (clock mode, files); only their status is compared.
    else if (!r.admin && text !== r.response)
      this.divergences.push({ seq: r.seq, request: name, what: 'body', recorded: r.response, replayed: text })
    else this.matched++
  }

  /** Runs to the recorded end, as serve did before writing it, and compares the trace length. */
  async finish(end: RecordedEnd): Promise<void> {
    await this.toward(end.at)
    await this.release()
    await this.during(this.host.advance(0))
    await this.release()
    if (this.sim.trace.length !== end.trace_length)
      this.divergences.push({
        seq: undefined,
        request: 'end of session',
        what: 'trace length',
        recorded: String(end.trace_length),
        replayed: String(this.sim.trace.length),
      })
  }
}

/**
 * Replays a served session: a fresh simulator with the record's seed, start, header prefix, limits
 * and forwarding, on a manual clock moved to each request's recorded arrival (due work fires on the
 * way, as serve's wall driver fired it), each request sent again (service requests through the
 * simulator's exchange, admin ones through the admin API), the `serve.request` entries appended as
 * serve appended them, and webhook posts that left the process answered with the recorded answer
 * at the recorded virtual time. Compares every answer and, at the end, the trace hash.
 *
 * @example
 * const result = await replayServedSession(readSessionRecord('session.jsonl'))
 * result.ok // true when every answer and the trace hash are the recorded ones
 */
export async function replayServedSession(record: SessionRecord): Promise<ServedReplayResult> {
  const replay = new ServedReplay(record)
  for (const r of record.requests) {
    await replay.toward(r.at)
    await replay.release()
    arrival(replay.sim, r.method, r.headers, r.path, r.admin, r.body, r.wall)
    const answer = await replay.during(replay.send(r))
    // Answers that came in right after this request in the session come in now.
    await replay.release()
    replay.compare(r, answer)
  }
  const end = record.end
  if (end !== undefined) await replay.finish(end)
  const { sim, divergences } = replay
  const replayed = sim.trace.hash()
  if (end !== undefined && replayed !== end.trace_hash)
    divergences.push({ seq: undefined, request: 'end of session', what: 'trace hash', recorded: end.trace_hash, replayed })
  return {
    requests: record.requests.length,
    matched: replay.matched,
    divergences,
    traceHash: { recorded: end?.trace_hash, replayed },
    ok: divergences.length === 0,
    sim,
  }
}
