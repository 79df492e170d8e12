import type { Simulator } from '#simulator/index.js'

/** Most characters of an answer kept. */
const MAX_ANSWER_CHARS = 4096

/**
 * One answer an app's receiver gave during a replay: to which event, when, its status and body.
 *
 * @example
 * const answer: KeptAnswer = { event: 'evt_1', at: 0, status: 500, body: 'database unavailable' }
 */
export interface KeptAnswer {
  readonly event: string
  readonly at: number
  readonly status: number
  readonly body: string
}

/** The event id of a delivery's body (snapshot and thin events both carry it). */
function eventOf(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id
    return typeof id === 'string' ? id : undefined
  } catch {
    return undefined
  }
}

/**
 * Keeps what the receivers mounted in a replay's simulator answer (the domain records an
 * attempt's status and timing, not the body; the step-through shows what the app said). The
 * handlers are wrapped where the transport looks them up, so whatever the run mounts later is
 * covered, and a handler that answers at once still answers at once: the bodies are read from
 * copies, after the fact, never holding up a delivery. The list fills as the run goes; read it
 * after the run has settled.
 *
 * @example
 * const answers = captureAnswers(sim)
 * // ... run ...
 * answers.list() // [{ event: 'evt_1', at: 0, status: 500, body: 'database unavailable' }]
 */
export function captureAnswers(sim: Simulator): { list(): readonly KeptAnswer[]; settled(): Promise<void> } {
  const kept: KeptAnswer[] = []
  const reading: Promise<void>[] = []
  const receivers = sim.receivers
  const get = receivers.get.bind(receivers)
  const keep = (copy: Request, at: number) => (res: Response) => {
    if (!(res instanceof Response)) return res
    const answer = res.clone()
    reading.push(
      Promise.all([copy.text(), answer.text()]).then(
        ([sent, body]) => {
          const event = eventOf(sent)
          if (event !== undefined) kept.push({ event, at, status: res.status, body: body.slice(0, MAX_ANSWER_CHARS) })
        },
        () => undefined,
      ),
    )
    return res
  }
  receivers.get = (url) => {
    const handler = get(url)
    if (handler === undefined) return undefined
    return (req: Request) => {
      const after = keep(req.clone(), sim.clock.now)
      const out = handler(req)
      return out instanceof Promise ? out.then(after) : after(out)
    }
  }
  return {
    list: () => kept,
    async settled() {
      while (reading.length > 0) await Promise.all(reading.splice(0))
    },
  }
}
