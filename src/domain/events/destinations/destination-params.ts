import { checkLength } from '../../engine/checks.js'
import { invalidRequest, tableError } from '../../service-error.js'
import { EVENTS_FROM } from './destination.js'

/** The provider's limits on a destination's texts and type list. */
const MAX_TEXT = 5000
const MAX_ENABLED_EVENTS = 1000

function checkName(value: unknown): void {
  if (value === '') throw tableError('parameter_invalid_empty', { param: 'name' }, { param: 'name' })
  checkLength(value, 'name', MAX_TEXT)
}

function checkEnabledEventsCount(value: unknown): void {
  if (Array.isArray(value) && value.length > MAX_ENABLED_EVENTS) {
    throw tableError(
      'parameter_invalid',
      { param: 'enabled_events', detail: `at most ${MAX_ENABLED_EVENTS} event types` },
      { param: 'enabled_events' },
    )
  }
}

/** The AWS account and region of an `amazon_eventbridge` destination: 12 digits, a region name. */
function checkEventBridge(value: unknown): void {
  if (value === undefined || value === null || typeof value !== 'object') {
    throw tableError('parameter_missing', { param: 'amazon_eventbridge' }, { param: 'amazon_eventbridge' })
  }
  const { aws_account_id: account, aws_region: region } = value as Record<string, unknown>
  if (account === undefined) {
    throw tableError(
      'parameter_missing',
      { param: 'amazon_eventbridge.aws_account_id' },
      { param: 'amazon_eventbridge.aws_account_id' },
    )
  }
  if (typeof account !== 'string' || !/^\d{12}$/.test(account)) {
    const param = 'amazon_eventbridge.aws_account_id'
    throw tableError('parameter_invalid', { param, detail: 'an AWS account id is 12 digits' }, { param })
  }
  if (region === undefined) {
    throw tableError('parameter_missing', { param: 'amazon_eventbridge.aws_region' }, { param: 'amazon_eventbridge.aws_region' })
  }
  if (typeof region !== 'string' || !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)) {
    const param = 'amazon_eventbridge.aws_region'
    throw tableError('parameter_invalid', { param, detail: 'an AWS region such as us-east-1' }, { param })
  }
}

/** A destination's own configuration: a webhook endpoint's, or an EventBridge event source's. */
function checkTarget(params: Readonly<Record<string, unknown>>): void {
  if (params.type === 'amazon_eventbridge') {
    checkEventBridge(params.amazon_eventbridge)
    return
  }
  if (params.type !== 'webhook_endpoint') {
    throw tableError(
      'parameter_invalid',
      { param: 'type', detail: 'webhook_endpoint and amazon_eventbridge destinations are served (param: type)' },
      { param: 'type' },
    )
  }
  if (params.webhook_endpoint === undefined) {
    throw tableError('parameter_missing', { param: 'webhook_endpoint' }, { param: 'webhook_endpoint' })
  }
}

/**
 * What the catalogue's params type cannot say of a create: the simulator serves
 * `webhook_endpoint` destinations (their `webhook_endpoint` required) and `amazon_eventbridge`
 * ones (their AWS account and region required), `events_from` takes the spec's four scopes,
 * texts have their lengths.
 *
 * @example
 * checkCreateParams({ name: 'h', type: 'azure_event_grid', ... }) // throws 400 on type
 */
export function checkCreateParams(params: Readonly<Record<string, unknown>>): void {
  checkName(params.name)
  checkTarget(params)
  const from = params.events_from
  if (Array.isArray(from)) {
    if (from.length === 0) throw invalidRequest('events_from must name at least one scope.', { param: 'events_from' })
    for (const [i, scope] of from.entries()) {
      if (!(EVENTS_FROM as readonly unknown[]).includes(scope)) {
        throw tableError(
          'parameter_invalid',
          { param: `events_from.${i}`, detail: `must be one of ${EVENTS_FROM.join(', ')}` },
          { param: `events_from.${i}` },
        )
      }
    }
  }
  checkEnabledEventsCount(params.enabled_events)
  checkLength(params.description, 'description', MAX_TEXT)
  if (params.snapshot_api_version === '') {
    throw tableError('parameter_invalid_empty', { param: 'snapshot_api_version' }, { param: 'snapshot_api_version' })
  }
}

/**
 * The same limits on an update (name, description, the type list).
 *
 * @example
 * checkUpdateParams({ name: '' }) // throws 400 on name
 */
export function checkUpdateParams(params: Readonly<Record<string, unknown>>): void {
  if (params.name !== undefined) checkName(params.name)
  checkEnabledEventsCount(params.enabled_events)
  checkLength(params.description, 'description', MAX_TEXT)
}
