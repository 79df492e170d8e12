import { useEffect, useRef, useState } from 'preact/hooks'

/**
 * What the live stream has said: how many changes and resets it announced, and whether it is
 * connected now.
 *
 * @example
 * const { changes, resets, connected } = useLiveUpdates()
 */
export interface LiveState {
  readonly changes: number
  readonly resets: number
  readonly connected: boolean
}

/**
 * Follows the server's live stream (server-sent events): each message bumps `changes` (or
 * `resets`), and the pages reread what they show. The browser reconnects by itself after a drop.
 *
 * @example
 * const live = useLiveUpdates()
 * useRefresh(load, [live.changes])
 */
export function useLiveUpdates(): LiveState {
  const [state, setState] = useState<LiveState>({ changes: 0, resets: 0, connected: false })
  useEffect(() => {
    const source = new EventSource('/__dashboard/live')
    source.addEventListener('hello', () => setState((s) => ({ ...s, connected: true, changes: s.changes + 1 })))
    source.addEventListener('change', () => setState((s) => ({ ...s, changes: s.changes + 1 })))
    source.addEventListener('reset', () => setState((s) => ({ ...s, resets: s.resets + 1 })))
    source.addEventListener('error', () => setState((s) => ({ ...s, connected: false })))
    return () => source.close()
  }, [])
  return state
}

/**
 * Runs `load` whenever a dependency changes, one load at a time: changes that come while a load
 * runs are folded into one more load after it, so a burst of changes costs two reads, not one each.
 *
 * @example
 * useRefresh(async () => setEvents(await adminGet('/events')), [live.changes])
 */
export function useRefresh(load: () => Promise<void>, deps: readonly unknown[]): void {
  const running = useRef(false)
  const again = useRef(false)
  const latest = useRef(load)
  latest.current = load
  useEffect(() => {
    if (running.current) {
      again.current = true
      return
    }
    const run = async (): Promise<void> => {
      running.current = true
      try {
        await latest.current()
      } finally {
        running.current = false
      }
      if (again.current) {
        again.current = false
        await run()
      }
    }
    void run()
  }, deps)
}
