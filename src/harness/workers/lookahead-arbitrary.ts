import fc from 'fast-check'

/**
 * Yields the stream's values unchanged and in order, but reads `depth` ahead of what was taken
 * and tells `ahead` the values the next takes will be, so they can run while the first is judged.
 */
function* readAhead<T>(stream: Iterator<fc.Value<T>>, depth: number, ahead: (next: readonly T[]) => void) {
  const buffer: fc.Value<T>[] = []
  let done = false
  const fill = () => {
    while (!done && buffer.length < depth) {
      const next = stream.next()
      if (next.done === true) done = true
      else buffer.push(next.value)
    }
  }
  fill()
  while (buffer.length > 0) {
    ahead(buffer.map((v) => v.value_))
    yield buffer.shift() as fc.Value<T>
    fill()
  }
}

class LookaheadArbitrary<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly inner: fc.Arbitrary<T>,
    private readonly depth: number,
    private readonly ahead: (next: readonly T[]) => void,
  ) {
    super()
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.inner.generate(mrng, biasFactor)
  }
  canShrinkWithoutContext(value: unknown): value is T {
    return this.inner.canShrinkWithoutContext(value)
  }
  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return new fc.Stream(readAhead(this.inner.shrink(value, context), this.depth, this.ahead))
  }
}

/**
 * The same arbitrary (the same values, the same shrinks in the same order) that, while fast-check
 * walks a shrink stream, announces the next `depth` candidates to `ahead`: fast-check still judges
 * them one at a time and keeps the first that fails, so the walk and its end are unchanged.
 *
 * @example
 * const arb = lookahead(fc.nat(), 2, (next) => console.log('soon', next))
 */
export function lookahead<T>(arb: fc.Arbitrary<T>, depth: number, ahead: (next: readonly T[]) => void): fc.Arbitrary<T> {
  return new LookaheadArbitrary(arb, depth, ahead)
}
