import {
  dunningActions,
  type FlowActionContext,
  type FlowProgram,
  flowActions,
  HarnessInputError,
  mirrorSubject,
  referenceSubscriptionMirror,
  runFlow,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

const hostile = [undefined, null, 'ctx', 42, [], {}] as const

/** Runs one custom step whose action gets the run's context and hands it to `probe`. */
async function withContext(probe: (ctx: FlowActionContext) => Promise<void>): Promise<void> {
  const program = { seed: 1, steps: [{ kind: 'x:probe' }], faults: [] } as unknown as FlowProgram
  await runFlow(program, mirrorSubject(referenceSubscriptionMirror, {}, 'probe'), {
    actions: {
      'x:probe': async (ctx) => {
        await probe(ctx)
        return undefined
      },
    },
  })
}

const requests = (ctx: FlowActionContext) => ctx.sim.trace.entries().filter((e) => e.kind === 'http').length

describe('the flow actions handed to custom flows', () => {
  it('reject a context that is not a run’s, naming the action and the missing part', async () => {
    const step = { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 } as const
    for (const ctx of hostile)
      await expect(flowActions.subscribe?.(ctx as never, step)).rejects.toThrow(/^flowActions\.subscribe: ctx(\.sim)? must be/)
    await expect(dunningActions['x:void']?.({} as never, { kind: 'x:void' } as never)).rejects.toThrow(
      /^dunningActions\['x:void'\]: ctx\.sim must be a simulator/,
    )
  })

  it('reject a malformed step or one of another kind before sending any request', async () => {
    await withContext(async (ctx) => {
      const before = requests(ctx)
      const refused = [
        [
          flowActions.subscribe,
          { kind: 'subscribe', customer: 0, plan: 'gold', quantity: 1, trialDays: 0 },
          /field 'plan' must be an integer/,
        ],
        [flowActions.subscribe, { kind: 'cancel', sub: 0, atPeriodEnd: false }, /step\.kind must be 'subscribe', got "cancel"/],
        [flowActions.cancel, { kind: 'cancel', sub: 0 }, /field 'atPeriodEnd' must be true or false/],
        [flowActions.resume, null, /step must be an object, got null/],
        [dunningActions['x:void'], { kind: 'x:void', customer: 'c' }, /field 'customer' must be an integer/],
      ] as const
      for (const [action, step, message] of refused) {
        const error = await Promise.resolve(action?.(ctx, step as never)).catch((e: unknown) => e)
        expect(error).toBeInstanceOf(HarnessInputError)
        expect((error as Error).message).toMatch(message)
      }
      expect(requests(ctx)).toBe(before)
    })
  })

  it('carry out a well-formed step from a custom action', async () => {
    await withContext(async (ctx) => {
      const note = await flowActions.subscribe?.(ctx, { kind: 'subscribe', customer: 0, plan: 0, quantity: 2, trialDays: 0 })
      expect(note).toBeUndefined()
      expect(ctx.subscriptions).toHaveLength(1)
      expect(await dunningActions['x:update_card']?.(ctx, { kind: 'x:update_card', customer: 0 } as never)).toBeUndefined()
    })
  })
})
