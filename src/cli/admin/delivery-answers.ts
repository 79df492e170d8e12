import type { DeliveryTransport } from '#domain/index.js'
import type { Simulator } from '#simulator/index.js'

/** Most answers kept per served simulator (the oldest go first), and most characters of each. */
const MAX_ANSWERS = 10_000
const MAX_ANSWER_CHARS = 4096

/** One answer a receiver gave: when the attempt was sent (virtual ms) and the body. */
interface Answer {
  readonly at: number
  readonly body: string
}

/** Answers by event and URL, in the order sent. */
const answersOf = new WeakMap<Simulator, Map<string, Answer[]>>()

const keyOf = (event: string, url: string) => `${event}\n${url}`

/** The event id of a delivery's body (snapshot and thin events both carry it first). */
function eventOf(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id
    return typeof id === 'string' ? id : undefined
  } catch {
    return undefined
  }
}

/**
 * Wraps the transport a served simulator's deliveries leave through, keeping the body each
 * receiver answered (at most 4 KiB of it, and the last 10,000 answers): the domain keeps an
 * attempt's status and timing, while a developer asking why their endpoint refused an event
 * needs what it said. `GET /__sim/deliveries` shows it as each attempt's `answer`.
 *
 * @example
 * installServeReceiverFaults(sim, keepDeliveryAnswers(sim, createTransport(sim.receivers)))
 */
export function keepDeliveryAnswers(sim: Simulator, base: DeliveryTransport): DeliveryTransport {
  const answers = new Map<string, Answer[]>()
  answersOf.set(sim, answers)
  let kept = 0
  const clock = sim.service.kernel.clock
  return {
    post(request) {
      const at = clock.now
      const keep = (result: Awaited<ReturnType<DeliveryTransport['post']>>) => {
        const event = result.kind === 'response' ? eventOf(request.body) : undefined
        if (event === undefined || result.kind !== 'response') return result
        const key = keyOf(event, request.url)
        answers.set(key, [...(answers.get(key) ?? []), { at, body: result.body.slice(0, MAX_ANSWER_CHARS) }])
        if (++kept > MAX_ANSWERS) {
          const oldest = answers.keys().next().value
          if (oldest !== undefined) {
            kept -= answers.get(oldest)?.length ?? 0
            answers.delete(oldest)
          }
        }
        return result
      }
      const result = base.post(request)
      return result instanceof Promise ? result.then(keep) : keep(result)
    },
    waitsOnClock: (url) => base.waitsOnClock(url),
  }
}

/**
 * The body a receiver answered to the attempt sent to `url` for `event` at virtual time `at`
 * (within its `durationMs`), if serve kept it.
 *
 * @example
 * deliveryAnswer(sim, 'evt_1', 'http://127.0.0.1:4242/webhook', attempt.at, attempt.durationMs) // 'bad signature'
 */
export function deliveryAnswer(sim: Simulator, event: string, url: string, at: number, durationMs: number): string | undefined {
  const list = answersOf.get(sim)?.get(keyOf(event, url))
  if (list === undefined) return undefined
  for (let i = list.length - 1; i >= 0; i--) {
    const answer = list[i] as Answer
    if (answer.at >= at && answer.at <= at + durationMs) return answer.body
  }
  return undefined
}
