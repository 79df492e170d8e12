/**
 * A binary min-heap ordered by due time, then by insertion sequence, so that items due at the same
 * virtual instant always come out in the order they were pushed. Stable ordering is what makes two
 * runs with the same seed produce the same trace.
 *
 * @example
 * const q = new PriorityQueue<string>()
 * q.push(10, 'b'); q.push(5, 'a'); q.push(10, 'c')
 * q.pop() // { due: 5, value: 'a', ... }
 */
export interface QueueItem<T> {
  readonly due: number
  readonly seq: number
  readonly value: T
}

export class PriorityQueue<T> {
  private readonly heap: QueueItem<T>[] = []
  private nextSeq = 0

  get size(): number {
    return this.heap.length
  }

  push(due: number, value: T): QueueItem<T> {
    const item: QueueItem<T> = { due, seq: this.nextSeq++, value }
    const heap = this.heap
    heap.push(item)
    let i = heap.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!before(item, heap[parent] as QueueItem<T>)) break
      heap[i] = heap[parent] as QueueItem<T>
      i = parent
    }
    heap[i] = item
    return item
  }

  /** Every item held, in heap order (not due order): for snapshots, which sort by `seq`. */
  items(): readonly QueueItem<T>[] {
    return this.heap
  }

  peek(): QueueItem<T> | undefined {
    return this.heap[0]
  }

  pop(): QueueItem<T> | undefined {
    const heap = this.heap
    const top = heap[0]
    const last = heap.pop()
    if (top === undefined || last === undefined || heap.length === 0) return top
    let i = 0
    const n = heap.length
    for (;;) {
      const l = 2 * i + 1
      if (l >= n) break
      const r = l + 1
      const child = r < n && before(heap[r] as QueueItem<T>, heap[l] as QueueItem<T>) ? r : l
      if (!before(heap[child] as QueueItem<T>, last)) break
      heap[i] = heap[child] as QueueItem<T>
      i = child
    }
    heap[i] = last
    return top
  }
}

function before<T>(a: QueueItem<T>, b: QueueItem<T>): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq)
}
