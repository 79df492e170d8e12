import { createClock } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import type { FlowSimOptions } from '../run/simulator-choice.js'

/**
 * With `simOptions: { clock: 'global' }`, the global clock is installed for the run and brought to
 * the run's time before each delivery (an app reading its own clock); the run's clock stays local.
 *
 * @example
 * const { receive, uninstall } = onWallClock(options, sim, handler)
 */
export function onWallClock(
  options: { readonly simOptions?: FlowSimOptions | undefined },
  sim: Simulator,
  receive: (r: Request) => Promise<Response>,
): { receive: (r: Request) => Promise<Response>; uninstall: () => void } {
  if (options.simOptions?.clock !== 'global') return { receive, uninstall: () => {} }
  const wall = createClock({ clock: 'global', start: sim.clock.now })
  const synced = (request: Request) => {
    wall.setSystemTime(sim.clock.now)
    return receive(request)
  }
  return { receive: synced, uninstall: () => void wall.uninstall() }
}
