import { RESEND_WINDOW_CLI_MS, RESEND_WINDOW_DASHBOARD_MS } from '#catalogue/rules.js'

/**
 * Manual resend windows after the event's creation.
 *
 * @example
 * clock.now - event.at > RESEND_WINDOW_MS.cli // too old for the command line
 */
export const RESEND_WINDOW_MS = { dashboard: RESEND_WINDOW_DASHBOARD_MS, cli: RESEND_WINDOW_CLI_MS } as const
/**
 * A receiver slower than this (virtual ms) has timed out.
 *
 * @example
 * send(r, event, d, 'automatic', DELIVERY_TIMEOUT_MS)
 */
export const DELIVERY_TIMEOUT_MS = 10_000
/**
 * Synchronous events (issuing authorisations) wait at most this long for the answer.
 *
 * @example
 * send(r, event, d, 'synchronous', SYNC_TIMEOUT_MS)
 */
export const SYNC_TIMEOUT_MS = 2_000
/**
 * The type of the event `ping` sends.
 *
 * @example
 * sim.admin.events({ type: PING_TYPE })
 */
export const PING_TYPE = 'v2.core.event_destination.ping'
/**
 * Default age of a delivery an attacker replays: past the usual 5-minute signature tolerance.
 *
 * @example
 * service.delivery.replay({ minAgeMs: REPLAY_MIN_AGE_MS })
 */
export const REPLAY_MIN_AGE_MS = 6 * 60_000
