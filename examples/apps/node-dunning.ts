import type { IncomingMessage, ServerResponse } from 'node:http'
import { verifySignature } from 'service-sim'
import type { DunningEnv } from 'service-sim/harness'

interface Invoice {
  readonly id: string
  readonly customer: string
}

type Row = Record<string, boolean>

/**
 * A dunning app as a bare Node request listener (what `http.createServer` takes): one "payment
 * failed" notice per unpaid invoice, one "restored" notice when a noticed invoice is paid, the
 * customer's account restricted while an invoice of theirs is written off, each event handled
 * once. What it knows lives in its database (`env.store`, which outlives a redeploy), each
 * decision one atomic update. `dedupe: false` is the classic mistake: a delivered-twice failure
 * notifies twice.
 */
export function dunningListener(env: DunningEnv, options: { dedupe?: boolean } = {}) {
  const dedupe = options.dedupe ?? true
  /** Changes a row atomically and answers what it held before. */
  const change = async (key: string, fn: (row: Row) => Row): Promise<Row> =>
    ((await env.store.update(key, (p) => fn({ ...((p ?? {}) as Row) }))) ?? {}) as Row
  async function handle(event: { id: string; type: string; data: { object: Invoice } }): Promise<void> {
    const invoice = event.data.object
    const key = `invoice:${invoice.id}`
    if (event.type === 'invoice.payment_failed') {
      const before = await change(key, (r) => (r.paid ? r : { ...r, noticed: true }))
      if (!before.paid && (!before.noticed || !dedupe)) env.notices.paymentFailed(invoice.id, invoice.customer, event.id)
    }
    if (event.type === 'invoice.marked_uncollectible') {
      if ((await change(key, (r) => r)).paid) return
      const off = await change(`written-off:${invoice.customer}`, (r) => ({ ...r, [invoice.id]: true }))
      if (Object.keys(off).length === 0) env.notices.restricted(invoice.customer, event.id)
    }
    if (event.type === 'invoice.paid' || event.type === 'invoice.voided') {
      // Paid, or voided (the debt forgiven): settled, so a late failure or write-off changes nothing.
      const paid = event.type === 'invoice.paid'
      const before = await change(key, (r) => ({ ...r, paid: true, restored: r.restored || (paid && r.noticed) || false }))
      if (paid && before.noticed && !before.restored) env.notices.restored(invoice.id, invoice.customer, event.id)
      const off = await change(`written-off:${invoice.customer}`, (r) => {
        const { [invoice.id]: _settled, ...rest } = r
        return rest
      })
      if (off[invoice.id] && Object.keys(off).length === 1) env.notices.reinstated(invoice.customer, event.id)
    }
  }
  return (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
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
      if (dedupe && (await env.store.update(`event:${event.id}`, (p) => p ?? true)) !== undefined)
        return void res.writeHead(200).end('duplicate')
      await handle(event)
      res.writeHead(200).end('ok')
    })
  }
}
