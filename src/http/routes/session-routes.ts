import { z } from 'zod'
import type { Route } from '../route.js'

/** `POST /v2/billing/meter_event_session`: a 15-minute token for the meter event stream. */
export const sessionRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v2/billing/meter_event_session',
    operation: 'v2.billing.meterEventSession.create',
    body: z.object({}),
    handle(ctx) {
      const session = ctx.service.sessions.create({ account: ctx.principal.account.id, mode: ctx.principal.mode })
      return ctx.service.sessions.toJSON(session)
    },
  },
]
