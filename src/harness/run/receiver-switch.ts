import type { Simulator } from '../../simulator/create-simulator.js'

/** A receiver mounted on the simulator that faults and steps can take down and bring up. */
export interface ReceiverSwitch {
  /** True while the receiver is unmounted (every attempt meets a connection failure). */
  readonly down: boolean
  /** Takes the receiver down (`true`) or brings it up (`false`). */
  set(down: boolean): void
}

/**
 * Mounts `handler` at `url` and wires the fault kinds that act outside the service to it: a
 * scheduled `receiver_down` unmounts it until `receiver_up` mounts it again, and `replay_delivery`
 * asks the service's delivery area to re-POST its oldest signed delivery once it is past the
 * signature tolerance (`REPLAY_MIN_AGE_MS`, the one constant for that age). `receiver_slow` and the
 * rate forms of `receiver_down` are per attempt and need no wiring (`hooks.deliveryFault`).
 *
 * @example
 * const control = wireReceiver(sim, { url, handler: (req) => subject.handler(req) })
 * control.set(true) // down
 */
export function wireReceiver(
  sim: Simulator,
  options: {
    readonly url: string
    readonly handler: (request: Request) => Response | Promise<Response>
    /** Called on every switch (the harness traces it). */
    readonly onSwitch?: (down: boolean) => void
  },
): ReceiverSwitch {
  const { url, handler } = options
  let down = false
  const set = (next: boolean) => {
    down = next
    if (next) sim.receivers.unmount(url)
    else sim.receivers.mount(url, (req: Request) => handler(req))
    options.onSwitch?.(next)
  }
  set(false)
  sim.faults.on('receiver_down', () => {
    set(true)
    return true
  })
  sim.faults.on('receiver_up', () => {
    set(false)
    return true
  })
  sim.faults.on('replay_delivery', () => sim.service.delivery.replay())
  return {
    get down() {
      return down
    },
    set,
  }
}
