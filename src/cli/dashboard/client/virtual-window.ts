import { useEffect, useRef, useState } from 'preact/hooks'

/** Rows drawn beyond each edge of the view, so a fast scroll does not show blank space. */
const OVERSCAN = 12

/**
 * Windowing for a long list of rows of one fixed height: only the rows in view (and a few beyond)
 * are drawn, between two spacers that keep the scroll bar true, so ten thousands of rows scroll as
 * smoothly as ten. Returns the scrolling box's ref, the first and last rows to draw and the
 * spacers' heights.
 *
 * @example
 * const win = useVirtualWindow(rows.length, 30)
 * rows.slice(win.start, win.end).map(...)
 */
export function useVirtualWindow(count: number, rowHeight: number) {
  const box = useRef<HTMLDivElement>(null)
  const [view, setView] = useState({ top: 0, height: 800 })
  useEffect(() => {
    const el = box.current
    if (el === null) return
    let queued = false
    const measure = () => {
      queued = false
      setView({ top: el.scrollTop, height: el.clientHeight || 800 })
    }
    // One measure per frame, however many scroll events the frame had.
    const onScroll = () => {
      if (queued) return
      queued = true
      requestAnimationFrame(measure)
    }
    measure()
    el.addEventListener('scroll', onScroll, { passive: true })
    addEventListener('resize', onScroll)
    return () => {
      el.removeEventListener('scroll', onScroll)
      removeEventListener('resize', onScroll)
    }
  }, [])
  const start = Math.max(0, Math.floor(view.top / rowHeight) - OVERSCAN)
  const end = Math.min(count, Math.ceil((view.top + view.height) / rowHeight) + OVERSCAN)
  return { box, start, end, before: start * rowHeight, after: (count - end) * rowHeight }
}
