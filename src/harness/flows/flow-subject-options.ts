import { z } from 'zod'
import type { DunningCheckOptions } from '../checkers/dunning-checker.js'
import type { MirrorCheckOptions } from '../checkers/subscription-mirror-checker.js'
import { HarnessInputError } from '../validate-input.js'
import type { FulfilmentSubjectOptions } from './fulfilment-subject.js'

/** A subscription's statuses, as the provider documents them: what an access policy may grant. */
const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const

const mirrorOptions = z
  .object({
    pastDueGraceMs: z.number().int().nonnegative().optional(),
    access: z
      .object({
        grants: z.array(z.enum(SUBSCRIPTION_STATUSES)).readonly().optional(),
        pastDueGraceMs: z.number().int().nonnegative().optional(),
        cancelAtPeriodEndKeepsAccess: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict()

const fulfilmentOptions = z
  .object({
    provisional: z.boolean().optional(),
    payments: z
      .array(z.object({ paymentMethod: z.string().min(1), authentication: z.enum(['succeed', 'fail']).optional() }).strict())
      .min(1)
      .readonly()
      .optional(),
  })
  .strict()

const dunningOptions = z
  .object({
    standing: z.object({ liftOnVoid: z.boolean().optional() }).strict().optional(),
  })
  .strict()

const SCHEMAS = { mirror: mirrorOptions, fulfilment: fulfilmentOptions, dunning: dunningOptions } as const

/** A flow property's own options, by its subject's kind: what decides its verdicts besides the program. */
export interface FlowSubjectOptions {
  mirror: MirrorCheckOptions
  fulfilment: FulfilmentSubjectOptions
  dunning: DunningCheckOptions
}

/**
 * The property's own options (the app's access policy, the payments drawn from, provisional
 * fulfilment) checked against their shapes: the ready-made checks refuse bad ones at the call, and a
 * replay refuses a counterexample file whose `harness.options` a check could not have written. The
 * message names the API and the option.
 *
 * @example
 * const check = flowSubjectOptions('checkSubscriptionMirror', 'mirror', { access: { grants: ['active', 'past_due'] } })
 */
export function flowSubjectOptions<K extends keyof FlowSubjectOptions>(
  api: string,
  kind: K,
  options: unknown,
  where = 'option',
): FlowSubjectOptions[K] {
  const parsed = SCHEMAS[kind].safeParse(options ?? {})
  if (parsed.success) return parsed.data as FlowSubjectOptions[K]
  const issue = parsed.error.issues[0]
  const path = issue?.path.length ? issue.path.join('.') : ''
  const key = issue?.code === 'unrecognized_keys' ? [path, ...issue.keys].filter(Boolean).join('.') : path
  throw new HarnessInputError(
    `${api}: ${where} '${key}' ${issue?.code === 'unrecognized_keys' ? 'is not known' : `is invalid: ${issue?.message}`}`,
  )
}
