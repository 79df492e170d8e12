import { SUBJECT_RECEIVER } from '../steps/program-steps.js'
import type { UsageReporter, WebhookReceiver } from '../subjects.js'
import { HarnessInputError } from '../validate-input.js'
import type { RunState } from './run-state.js'
import { HARNESS_EVENT_NAME, HARNESS_RECEIVER_URL } from './setup.js'

function wireReporter(state: RunState): void {
  const { sim, options, setup } = state
  const meter = setup.meter
  if (!options.reporter || meter === undefined) return
  const reporter = options.reporter({
    fetch: sim.fetch,
    clock: sim.clock,
    baseUrl: 'https://api.service.test',
    meterEventsUrl: 'https://meter-events.service.test',
    secretKey: sim.platform.secretKey.test,
    eventName: HARNESS_EVENT_NAME,
    customerKey: meter.customerKey,
    valueKey: meter.valueKey,
    prefix: sim.service.kernel.prefix,
    random() {
      return state.clientRng.next()
    },
    store: state.store,
  })
  if (typeof (reporter as Partial<UsageReporter> | undefined)?.report !== 'function')
    throw new HarnessInputError(`${state.api}: reporter factory must return { report }`)
  state.reporter = reporter
}

// Delivery faults reach the receiver through the fault hooks (per attempt: slow network, transport
// failures, duplicates, reordering) and the step runner (receiver down/up, an attacker's replay).
function wireReceiver(state: RunState): void {
  const { sim, options } = state
  const d = state.setup.destination
  if (!options.webhook || d === undefined) return
  const trace = sim.service.kernel.trace
  state.destination = d
  state.receiver = buildReceiver(state)
  // Through the run's state: a restart swaps the receiver behind the mounted URL.
  state.control = state.runner.mount({
    name: SUBJECT_RECEIVER,
    url: HARNESS_RECEIVER_URL,
    handler(req) {
      return (state.receiver as WebhookReceiver).handler(req)
    },
    onSwitch(down) {
      trace.append('harness.receiver', { down })
    },
  })
}

/**
 * A new webhook receiver from the run's factory, as a deploy makes one: its environment (the
 * signing secrets) is what the factory reads now; the durable store is the run's.
 *
 * @example
 * state.receiver = buildReceiver(state)
 */
export function buildReceiver(state: RunState): WebhookReceiver {
  const { sim, options } = state
  const d = state.destination as string
  const trace = sim.service.kernel.trace
  const factory = options.webhook as NonNullable<typeof options.webhook>
  const receiver = factory({
    // Oldest first, newest last (the service keeps them newest first).
    secrets() {
      return sim.admin.signingSecrets(d).reverse()
    },
    clock: sim.clock,
    prefix: sim.service.kernel.prefix,
    effects: {
      record(event, effect) {
        trace.append('harness.effect', { event, effect })
      },
      skip(event) {
        state.skipped.add(event)
        trace.append('harness.skipped', { event })
      },
    },
    store: state.store,
  })
  const made = receiver as Partial<WebhookReceiver> | undefined
  if (typeof made?.handler !== 'function' || typeof made.state !== 'function')
    throw new HarnessInputError(`${state.api}: receiver factory must return { handler, state }`)
  return receiver
}

/**
 * Makes the subjects of a run once the simulator goes on with the run's seed (what they draw at
 * construction is then the same whether the simulator was forked or built), and mounts the
 * receiver on the step runner.
 *
 * @example
 * wireSubjects(state)
 */
export function wireSubjects(state: RunState): void {
  wireReporter(state)
  wireReceiver(state)
}
