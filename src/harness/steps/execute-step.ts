import type { RequestSpec, StepSpec } from '../scenario/schema.js'
import { fill } from '../scenario/template.js'
import type { StepContext } from './step-context.js'
import { StepFailure } from './step-context.js'
import { type StepKind, stepKindOf } from './step-kinds.js'

type Action = (ctx: StepContext, step: StepSpec) => Promise<void>

async function request(ctx: StepContext, step: StepSpec): Promise<void> {
  const r = step.request as RequestSpec
  for (let i = 0; i < (r.times ?? 1); i++) {
    const res = await ctx.send(r)
    if (r.save) ctx.vars[r.save] = res.body
  }
}

async function parallel(ctx: StepContext, step: StepSpec): Promise<void> {
  const list = step.parallel as RequestSpec[]
  const results = await Promise.all(list.map((r) => ctx.send(r)))
  list.forEach((r, i) => {
    if (r.save) ctx.vars[r.save] = results[i]?.body
  })
}

async function client(ctx: StepContext, step: StepSpec): Promise<void> {
  const c = step.client as NonNullable<StepSpec['client']>
  const result = await ctx.act(c.action, fill(c.args ?? {}, ctx.vars))
  if (c.save) ctx.vars[c.save] = result
}

async function receiver(ctx: StepContext, step: StepSpec): Promise<void> {
  const r = step.receiver as NonNullable<StepSpec['receiver']>
  const control = ctx.receiver(r.name)
  if (control === undefined) throw new StepFailure(`no receiver named '${r.name}'`)
  control.set(r.state === 'down', r.status)
}

async function admin(ctx: StepContext, step: StepSpec): Promise<void> {
  const a = step.admin as NonNullable<StepSpec['admin']>
  const target = ctx.sim.admin
  // Own methods only: a scenario naming `constructor` or `toString` must not call Object's.
  const fn = Object.hasOwn(target, a.call) ? (target as unknown as Record<string, unknown>)[a.call] : undefined
  if (typeof fn !== 'function') throw new StepFailure(`sim.admin has no method '${a.call}' in this build`)
  const args = fill(a.args ?? [], ctx.vars).map((v) => ctx.adminArg(v))
  const result = await (fn as (...x: unknown[]) => unknown).apply(target, args)
  if (a.save) ctx.vars[a.save] = result
}

const actions: Readonly<Record<Exclude<StepKind, 'repeat'>, Action>> = {
  request,
  parallel,
  advance: (ctx, step) => ctx.runner.advance(step.advance as number),
  settle: (ctx) => ctx.sim.settle(),
  client,
  receiver,
  admin,
}

/**
 * The one step executor: runs one step of the one vocabulary (a `repeat` is expanded by the
 * caller, which numbers each inner step) on the runner's context.
 *
 * @example
 * await executeStep(context, { client: { action: 'report_usage', args: { units: 2, value: 1 } } })
 */
export async function executeStep(ctx: StepContext, step: StepSpec): Promise<void> {
  const kind = stepKindOf(step)
  if (kind === 'repeat') throw new StepFailure('a repeat step is expanded before it runs')
  await actions[kind](ctx, step)
}

/**
 * Walks a list of steps in order, expanding `repeat` steps into their inner steps.
 *
 * @example
 * await eachStep(scenario.workload, (step) => run(step))
 */
export async function eachStep(list: readonly StepSpec[], run: (step: StepSpec) => Promise<void>): Promise<void> {
  for (const step of list) {
    if (step.repeat) {
      for (let i = 0; i < step.repeat.times; i++) await eachStep(step.repeat.steps, run)
      continue
    }
    await run(step)
  }
}
