import { Worker } from 'node:worker_threads'
import { HarnessInputError } from '../validate-input.js'
import { programKey } from './program-key.js'
import type { SubjectRecipe } from './subject-recipe.js'
import type { FactoryRef } from './workers-option.js'

/** A run's answer: the property held or not, or what the run threw. */
export type LaneOutcome =
  | { readonly ok: boolean; readonly coverage?: readonly string[] }
  | { readonly error: { readonly message: string; readonly harnessInput: boolean } }

interface Job {
  readonly program: unknown
  readonly done: Promise<LaneOutcome>
  settle(o: LaneOutcome): void
  fail(e: Error): void
  state: 'queued' | 'running' | 'done'
  /** Someone waits for it: never dropped from the queue. */
  awaited: boolean
}

/** A lane runs one job at a time: a worker thread, or this thread (`worker` undefined). */
interface Lane {
  readonly worker: Worker | undefined
  job: Job | undefined
}

/**
 * Worker threads of earlier checks, kept for the next (starting one and loading the harness in it
 * costs more than most runs); unreferenced while idle, so they never keep the process alive.
 */
const spare: Worker[] = []

/** Keeps an idle worker thread for the next check, unreferenced. */
function release(worker: Worker): void {
  // Only the lanes' own listeners: node's own (those that ref the thread's port) must stay.
  for (const event of ['message', 'error', 'exit']) worker.removeAllListeners(event)
  worker.unref()
  spare.push(worker)
}

/** The worker thread's file: its TypeScript source needs tsx registered first (worker threads do not inherit a loader). */
function workerFile(): URL {
  const fromSources = import.meta.url.endsWith('.ts')
  return new URL(fromSources ? './worker-thread-tsx.mjs' : './worker-thread.js', import.meta.url)
}

function newJob(program: unknown): Job {
  let settle: (o: LaneOutcome) => void = () => undefined
  let fail: (e: Error) => void = () => undefined
  const done = new Promise<LaneOutcome>((resolve, reject) => {
    settle = resolve
    fail = reject
  })
  // A dropped speculative job may fail with the pool and nobody wait for it.
  done.catch(() => undefined)
  return { program, done, settle, fail, state: 'queued', awaited: false }
}

/** Hands `init` to a worker and waits for it to find the factory. */
function initialise(api: string, worker: Worker, init: { recipe: SubjectRecipe; factory: FactoryRef }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    worker.once('message', (m: { ready?: true; startError?: string }) =>
      m.ready ? resolve() : reject(new HarnessInputError(`${api}: option 'workers': ${m.startError}`)),
    )
    worker.once('error', reject)
    worker.postMessage({ init })
  })
}

/**
 * The lanes that run one check's programs: this thread and `count - 1` worker threads.
 * `outcome(p)` answers a program's run (at once when it already ran), `ahead(ps)` names the
 * programs about to be asked, in order, so idle lanes run them meanwhile. A program runs at most
 * once. This thread takes part from the start, so the runs begin while the workers load.
 *
 * @example
 * const lanes = WorkerLanes.open('checkDunning', 2, { export: 'referenceDunningClient' }, recipe, runHere)
 * const outcome = await lanes.outcome(program)
 * await lanes.close()
 */
export class WorkerLanes {
  private readonly jobs = new Map<string, Job>()
  private queue: Job[] = []
  private broken: Error | undefined
  private readonly lanes: Lane[] = [{ worker: undefined, job: undefined }]
  private readonly starting: Promise<void>[] = []
  private closed = false

  private constructor(private readonly local: (program: unknown) => Promise<LaneOutcome>) {}

  /**
   * Starts (or reuses) `count - 1` worker threads; this thread's lane runs at once and each worker
   * joins when it has found the factory. A worker that cannot find it stops the lanes with a
   * `HarnessInputError` naming the option (`failure`).
   */
  static open(
    api: string,
    count: number,
    factory: FactoryRef,
    recipe: SubjectRecipe,
    local: (program: unknown) => Promise<LaneOutcome>,
  ): WorkerLanes {
    const workerData = { fromSources: import.meta.url.endsWith('.ts') }
    const pool = new WorkerLanes(local)
    for (let i = 1; i < count; i++) {
      const worker = spare.pop() ?? new Worker(workerFile(), { workerData })
      worker.ref()
      pool.starting.push(
        initialise(api, worker, { recipe, factory }).then(
          () => {
            worker.removeAllListeners('error')
            if (pool.closed) return release(worker)
            const lane: Lane = { worker, job: undefined }
            pool.lanes.push(lane)
            pool.listen(lane)
            pool.dispatch()
          },
          (error: Error) => {
            void worker.terminate()
            pool.stop(
              error instanceof HarnessInputError ? error : new Error(`${api}: a worker thread could not start: ${error.message}`),
            )
          },
        ),
      )
    }
    return pool
  }

  /** Settles once every worker thread has joined or failed to start. */
  async started(): Promise<void> {
    await Promise.all(this.starting)
  }

  /** Why the lanes stopped, when a worker could not start or died. */
  get failure(): Error | undefined {
    return this.broken
  }

  private stop(error: Error): void {
    this.broken ??= error
    for (const job of this.jobs.values()) if (job.state !== 'done') job.fail(this.broken)
  }

  private listen(lane: Lane): void {
    const worker = lane.worker as Worker
    worker.on('message', (o: LaneOutcome) => this.finish(lane, o))
    worker.on('error', (error) => this.stop(error))
    worker.on('exit', (code) => this.stop(new Error(`a worker thread stopped (exit code ${code})`)))
  }

  private finish(lane: Lane, o: LaneOutcome): void {
    const job = lane.job
    lane.job = undefined
    if (job !== undefined) {
      job.state = 'done'
      job.settle(o)
    }
    this.dispatch()
  }

  private jobOf(program: unknown): Job {
    const key = programKey(program)
    let job = this.jobs.get(key)
    if (job === undefined) {
      job = newJob(program)
      this.jobs.set(key, job)
      if (this.broken !== undefined) job.fail(this.broken)
    }
    return job
  }

  private dispatch(): void {
    for (const lane of this.lanes) {
      if (lane.job !== undefined) continue
      const job = this.queue.shift()
      if (job === undefined) return
      job.state = 'running'
      lane.job = job
      if (lane.worker !== undefined) lane.worker.postMessage({ program: job.program })
      else void this.local(job.program).then((o) => this.finish(lane, o))
    }
  }

  /** The run of `program`: run next if it is not running or done yet. */
  outcome(program: unknown): Promise<LaneOutcome> {
    const job = this.jobOf(program)
    job.awaited = true
    if (job.state === 'queued') {
      this.queue = [job, ...this.queue.filter((j) => j !== job)]
      this.dispatch()
    }
    return job.done
  }

  /** The programs to be asked next, in order: they replace the speculative queue (runs under way go on). */
  ahead(programs: readonly unknown[]): void {
    const next = new Set<Job>(this.queue.filter((j) => j.awaited))
    for (const p of programs) {
      const job = this.jobOf(p)
      if (job.state === 'queued') next.add(job)
    }
    for (const [key, job] of this.jobs) if (job.state === 'queued' && !next.has(job)) this.jobs.delete(key)
    this.queue = [...next]
    this.dispatch()
  }

  /** Waits for the runs under way, then gives the worker threads back for the next check. */
  async close(): Promise<void> {
    this.queue = []
    this.closed = true
    await Promise.all(this.lanes.map((l) => l.job?.done.catch(() => undefined)))
    const healthy = this.broken === undefined
    this.broken ??= new Error('the worker lanes are closed')
    for (const { worker } of this.lanes) {
      if (worker === undefined) continue
      if (!healthy) {
        await worker.terminate()
        continue
      }
      release(worker)
    }
  }
}
