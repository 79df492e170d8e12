import { nextMacrotask } from '#kernel/macrotask.js'
import { TURN } from '#kernel/turn.js'

/**
 * Resolves when `work` settles, or earlier when it has stayed pending through `macrotasks` real
 * macrotasks: then it is waiting on the virtual clock (an in-process receiver sleeping), which
 * only a clock advance can release, so `settle()` must stop waiting for it instead of hanging.
 *
 * @example
 * scheduler.track(untilIdle(attempt)) // settle() returns even if the receiver sleeps 30 virtual s
 */
export async function untilIdle(work: Promise<unknown>, macrotasks = 64): Promise<void> {
  let done = false
  const finished = work.then(
    () => {
      done = true
    },
    () => {
      done = true
    },
  )
  // Most receivers answer within a few microtasks; only then pay for macrotask polling.
  for (let i = 0; i < 64 && !done; i++) await TURN
  if (done) return finished
  const idle = (async () => {
    for (let i = 0; i < macrotasks && !done; i++) await nextMacrotask()
  })()
  await Promise.race([finished, idle])
}
