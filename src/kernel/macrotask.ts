/**
 * A real (never faked) macrotask boundary. The request time model uses it to decide which requests
 * overlap: every request that arrives before the next macrotask is in flight together. It must stay
 * real when a user installs fake timers globally, so the native `setImmediate` is captured when this
 * module loads; if it was already faked then, a `MessageChannel` (which fake-timers never fakes)
 * serves instead.
 *
 * @example
 * await nextMacrotask() // every pending microtask of the client has run
 */
import { MessageChannel as NodeMessageChannel } from 'node:worker_threads'

type Immediate = (fn: () => void) => unknown

const native = globalThis.setImmediate as Immediate & { clock?: unknown }
const schedule: Immediate = native.clock === undefined ? native : channelImmediate()

function channelImmediate(): Immediate {
  const queue: (() => void)[] = []
  const channel = new NodeMessageChannel()
  channel.port1.on('message', () => {
    const fn = queue.shift()
    if (fn) fn()
    if (queue.length === 0) channel.port1.unref()
  })
  channel.port1.unref()
  return (fn) => {
    queue.push(fn)
    channel.port1.ref()
    channel.port2.postMessage(0)
  }
}

export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => {
    schedule(resolve)
  })
}
