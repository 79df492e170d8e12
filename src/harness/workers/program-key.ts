const MARK = '\u0000'

/**
 * A key telling generated programs apart by value: their JSON, with what JSON would merge kept
 * apart (`undefined`, `-0`, `NaN` and the infinities), so two programs share a key only when a run
 * cannot tell them apart.
 *
 * @example
 * programKey({ seed: 1, steps: [], faults: [] }) // '{"seed":1,"steps":[],"faults":[]}'
 */
export function programKey(program: unknown): string {
  return JSON.stringify(program, (_key, v: unknown) => {
    if (v === undefined) return `${MARK}undefined`
    if (typeof v !== 'number') return v
    if (Object.is(v, -0)) return `${MARK}-0`
    return Number.isFinite(v) ? v : `${MARK}${String(v)}`
  })
}
