import { Worker } from 'node:worker_threads'
import { HarnessInputError } from '../validate-input.js'
import { programKey } from './program-key.js'
import { CLAIM, type PlanMessage, type PlanResult } from './run-plan.js'
import type { SubjectRecipe } from './subject-recipe.js'
import type { FactoryRef } from './workers-option.js'

/** A run's answer: the property held or not, or what the run threw. */
export type LaneOutcome =
  | { readonly ok: boolean; readonly coverage?: readonly string[] }
  | { readonly error: { readonly message: string; readonly harnessInput: boolean } }

/** The programs the lanes make next, in order, and who took each (`CLAIM`), shared with the workers. */
interface Plan {
  readonly id: number
  readonly jobs: readonly Job[]
  readonly claims: Int32Array
  /** This thread's cursor: every slot before it is taken or dropped. */
  next: number
}

interface Job {
  readonly program: unknown
  readonly done: Promise<LaneOutcome>
  settle(o: LaneOutcome): void
  fail(e: Error): void
  state: 'queued' | 'running' | 'done'
  /** Someone waits for it: never dropped from the plan. */
  awaited: boolean
  /** Its slot in the latest plan that holds it. */
  slot?: { readonly plan: Plan; readonly index: number }
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
 * programs about to be asked, in order. The programs go to every lane at once as a plan whose
 * slots live in shared memory: each lane takes the next free slot itself the moment it is idle
 * (a worker never waits for this thread to hand it work), so the lanes end together. A program
 * runs at most once. This thread takes part from the start, so the runs begin while the workers load.
 *
 * @example
 * const lanes = WorkerLanes.open('checkDunning', 2, { export: 'referenceDunningClient' }, recipe, runHere)
 * const outcome = await lanes.outcome(program)
 * await lanes.close()
 */
export class WorkerLanes {
  private readonly jobs = new Map<string, Job>()
  private readonly plans = new Map<number, Plan>()
  private current: Plan | undefined
  private broken: Error | undefined
  private readonly workers: Worker[] = []
  private readonly starting: Promise<void>[] = []
  private readonly wanted: Job[] = []
  private busyHere = false
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
            pool.join(worker)
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

  private join(worker: Worker): void {
    this.workers.push(worker)
    worker.on('message', (r: PlanResult) => {
      const job = this.plans.get(r.plan)?.jobs[r.index]
      if (job !== undefined) this.settle(job, r.outcome)
    })
    worker.on('error', (error) => this.stop(error))
    worker.on('exit', (code) => this.stop(new Error(`a worker thread stopped (exit code ${code})`)))
    if (this.current !== undefined) worker.postMessage(this.messageOf(this.current))
  }

  private settle(job: Job, o: LaneOutcome): void {
    if (job.state === 'done') return
    job.state = 'done'
    job.settle(o)
  }

  private messageOf(plan: Plan): PlanMessage {
    return { plan: { id: plan.id, programs: plan.jobs.map((j) => j.program), claims: plan.claims } }
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

  /** No lane has taken `job` yet; one a worker took meanwhile is marked running. */
  private untaken(job: Job): boolean {
    if (job.state !== 'queued') return false
    if (job.slot === undefined) return true
    if (Atomics.load(job.slot.plan.claims, job.slot.index) !== CLAIM.worker) return true
    job.state = 'running'
    return false
  }

  /** `job` waits in a free slot of the current plan. */
  private free(job: Job): boolean {
    const slot = job.slot
    if (!this.untaken(job) || slot === undefined || slot.plan !== this.current) return false
    return Atomics.load(slot.plan.claims, slot.index) === CLAIM.free
  }

  /** Ends the current plan: its free slots are dropped, so no lane starts them any more. */
  private dropCurrent(): void {
    const plan = this.current
    if (plan === undefined) return
    this.current = undefined
    for (let i = plan.next; i < plan.jobs.length; i++) {
      const was = Atomics.compareExchange(plan.claims, i, CLAIM.free, CLAIM.dropped)
      const job = plan.jobs[i] as Job
      if (was === CLAIM.worker && job.state === 'queued') job.state = 'running'
    }
  }

  /** Makes `jobs` the plan every lane takes from, in order. */
  private replan(jobs: readonly Job[]): void {
    this.dropCurrent()
    if (jobs.length === 0 || this.closed) return
    const id = this.plans.size
    const plan: Plan = { id, jobs, claims: new Int32Array(new SharedArrayBuffer(4 * jobs.length)), next: 0 }
    jobs.forEach((job, index) => {
      job.slot = { plan, index }
    })
    this.plans.set(id, plan)
    this.current = plan
    const message = this.messageOf(plan)
    for (const worker of this.workers) worker.postMessage(message)
    this.pump()
  }

  /** This thread's next run: a job someone waits for first, then the plan's next free slot. */
  private claimHere(): Job | undefined {
    const plan = this.current
    if (plan === undefined) return undefined
    while (this.wanted.length > 0) {
      const job = this.wanted.shift() as Job
      const slot = job.slot
      if (slot?.plan !== plan || !this.free(job)) continue
      if (Atomics.compareExchange(plan.claims, slot.index, CLAIM.free, CLAIM.here) === CLAIM.free) return job
    }
    while (plan.next < plan.jobs.length) {
      const job = plan.jobs[plan.next] as Job
      const was = Atomics.compareExchange(plan.claims, plan.next++, CLAIM.free, CLAIM.here)
      if (was === CLAIM.worker && job.state === 'queued') job.state = 'running'
      if (was === CLAIM.free && job.state === 'queued') return job
    }
    return undefined
  }

  /** Keeps this thread's lane busy while the plan has free slots. */
  private pump(): void {
    if (this.busyHere || this.closed || this.broken !== undefined) return
    const job = this.claimHere()
    if (job === undefined) return
    job.state = 'running'
    this.busyHere = true
    void this.local(job.program).then((o) => {
      this.busyHere = false
      this.settle(job, o)
      this.pump()
    })
  }

  /** The run of `program`: run next if no lane has taken it yet. */
  outcome(program: unknown): Promise<LaneOutcome> {
    const job = this.jobOf(program)
    job.awaited = true
    if (this.free(job)) {
      this.wanted.push(job)
      this.pump()
    } else if (this.untaken(job)) {
      this.replan([job, ...this.pending()])
    }
    return job.done
  }

  /** The current plan's jobs no lane has taken yet, in order. */
  private pending(): Job[] {
    const plan = this.current
    if (plan === undefined) return []
    return plan.jobs.slice(plan.next).filter((job) => this.free(job))
  }

  /** The programs to be asked next, in order: they replace the speculative plan (runs under way go on). */
  ahead(programs: readonly unknown[]): void {
    const next = new Set<Job>(this.pending().filter((j) => j.awaited))
    for (const p of programs) {
      const job = this.jobOf(p)
      if (this.untaken(job)) next.add(job)
    }
    for (const [key, job] of this.jobs) if (job.state === 'queued' && !next.has(job)) this.jobs.delete(key)
    this.replan([...next])
  }

  /** Waits for the runs under way, then gives the worker threads back for the next check. */
  async close(): Promise<void> {
    this.dropCurrent()
    this.closed = true
    await Promise.all([...this.jobs.values()].filter((j) => j.state === 'running').map((j) => j.done.catch(() => undefined)))
    const healthy = this.broken === undefined
    this.broken ??= new Error('the worker lanes are closed')
    for (const worker of this.workers) {
      if (!healthy) {
        await worker.terminate()
        continue
      }
      release(worker)
    }
  }
}
