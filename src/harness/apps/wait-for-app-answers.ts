import { createTransport } from '#http/index.js'
import type { FlowRun } from '../flows/flow-run.js'
import { FLOW_RECEIVER_URL } from '../flows/flow-setup.js'
import { answersInRealTime } from '../flows/real-time-receiver.js'

/**
 * Makes the run's clock wait for the app: its receiver's deliveries count as answered from
 * outside the process, so the scheduler waits for each answer (in real time) before the virtual
 * clock moves, instead of timing it out on the virtual clock while the app is still reading it;
 * the harness's own requests to it (a forgery) are awaited the same way.
 *
 * @example
 * waitForAppAnswers(run)
 */
export function waitForAppAnswers(run: FlowRun): void {
  const base = createTransport(run.sim.receivers)
  answersInRealTime(run.sim)
  run.sim.service.delivery.useTransport({
    post: (request) => base.post(request),
    waitsOnClock: (url) => (url === FLOW_RECEIVER_URL ? false : base.waitsOnClock(url)),
  })
}
