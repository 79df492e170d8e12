import type { IncomingMessage, ServerResponse } from 'node:http'
import { verifySignature } from 'service-sim'
import type { DunningEnv } from 'service-sim/harness'

interface Invoice {
  readonly id: string
  readonly customer: string
}

/**
 * A dunning app as a bare Node request listener (what `http.createServer` takes): one "payment
 * failed" notice per unpaid invoice, one "restored" notice when a noticed invoice is paid, each
 * event handled once. `dedupe: false` is the classic mistake: a delivered-twice failure notifies
 * twice.
 */
export function dunningListener(env: DunningEnv, options: { dedupe?: boolean } = {}) {
  const seen = new Set<string>()
  const paid = new Set<string>()
  const noticed = new Set<string>()
  const restored = new Set<string>()
  const dedupe = options.dedupe ?? true
  function handle(event: { id: string; type: string; data: { object: Invoice } }): void {
    const invoice = event.data.object
    if (event.type === 'invoice.payment_failed' && !paid.has(invoice.id) && (!noticed.has(invoice.id) || !dedupe)) {
      noticed.add(invoice.id)
      env.notices.paymentFailed(invoice.id, invoice.customer, event.id)
    }
    if (event.type === 'invoice.paid') {
      paid.add(invoice.id)
      if (!noticed.has(invoice.id) || restored.has(invoice.id)) return
      restored.add(invoice.id)
      env.notices.restored(invoice.id, invoice.customer, event.id)
    }
  }
  return (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      try {
        verifySignature(raw, req.headers[`${env.prefix.toLowerCase()}-signature`] as string, env.secrets(), {
          now: env.clock.now,
        })
      } catch {
        res.writeHead(400).end('bad signature')
        return
      }
      const event = JSON.parse(raw) as { id: string; type: string; data: { object: Invoice } }
      if (dedupe && seen.has(event.id)) return void res.writeHead(200).end('duplicate')
      seen.add(event.id)
      handle(event)
      res.writeHead(200).end('ok')
    })
  }
}
