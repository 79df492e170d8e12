import { describe, expect, it } from 'vitest'
import { destination, setup } from './helpers.js'

const URL_A = 'https://hooks.example.test/request'

/** Mounts `handler` at URL_A, triggers one event and returns what the handler returned. */
async function deliverOne<T>(handler: (req: Request) => Promise<T>): Promise<{ seen: T }> {
  const { sim, stripe } = setup()
  await destination(stripe, { url: URL_A })
  let seen: T | undefined
  sim.receivers.mount(URL_A, async (req) => {
    seen = await handler(req)
    return new Response('ok')
  })
  sim.admin.trigger('customer.created', { synthetic: true })
  await sim.settle()
  return { seen: seen as T }
}

describe('the request an in-process receiver gets', () => {
  it('is a POST Request with the signed headers and the event as its body', async () => {
    const { seen } = await deliverOne(async (req) => ({
      isRequest: req instanceof Request,
      method: req.method,
      url: req.url,
      type: req.headers.get('content-type'),
      signed: /^t=\d+,v1=[0-9a-f]{64}/.test(req.headers.get('Stripe-Signature') ?? ''),
      event: (await req.json()) as { object: string; type: string },
      used: req.bodyUsed,
    }))
    expect(seen).toMatchObject({ isRequest: true, method: 'POST', url: URL_A, signed: true, used: true })
    expect(seen.type).toContain('application/json')
    expect(seen.event).toMatchObject({ object: 'event', type: 'customer.created' })
  })

  it('reads the same body through text(), a clone, arrayBuffer() and the stream', async () => {
    const { seen } = await deliverOne(async (req) => {
      const copy = await req.clone().text()
      const bytes = new TextDecoder().decode(await req.clone().arrayBuffer())
      const streamed = await new Response(req.clone().body).text()
      return { copy, bytes, streamed, text: await req.text() }
    })
    expect(seen.text).toContain('"customer.created"')
    expect(new Set([seen.copy, seen.bytes, seen.streamed, seen.text]).size).toBe(1)
  })

  it('refuses a second read of the body, as fetch does', async () => {
    const { seen } = await deliverOne(async (req) => {
      await req.text()
      const again = await req.text().then(
        () => 'read twice',
        (e: unknown) => (e instanceof TypeError ? 'refused' : 'other error'),
      )
      let cloned = 'cloned'
      try {
        req.clone()
      } catch (e) {
        cloned = e instanceof TypeError ? 'refused' : 'other error'
      }
      return { again, cloned }
    })
    expect(seen).toEqual({ again: 'refused', cloned: 'refused' })
  })

  it('has a signal that aborts when the attempt times out', async () => {
    const { sim, stripe } = setup()
    await destination(stripe, { url: URL_A })
    let aborted: boolean | undefined
    sim.receivers.mount(URL_A, async (req) => {
      await new Promise((r) => sim.clock.setTimeout(r, 60_000))
      aborted = req.signal.aborted
      return new Response('late')
    })
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.service.kernel.scheduler.advance(sim.clock.now + 90_000)
    expect(sim.admin.deliveries({ event: evt.id })[0]?.attempts[0]).toMatchObject({ outcome: 'timeout' })
    expect(aborted).toBe(true)
  })
})

describe('a copy of the request an in-process receiver gets', () => {
  it('keeps the body and the headers when wrapped in a new Request (as frameworks do)', async () => {
    const { seen } = await deliverOne(async (req) => {
      const copy = new Request(req)
      return { text: await copy.text(), signed: copy.headers.get('Stripe-Signature') !== null, method: copy.method }
    })
    expect(seen.text).toContain('"customer.created"')
    expect(seen).toMatchObject({ signed: true, method: 'POST' })
  })

  it('refuses to copy a request whose body was already read, as fetch does', async () => {
    const { seen } = await deliverOne(async (req) => {
      await req.text()
      try {
        new Request(req)
        return 'copied'
      } catch (e) {
        return e instanceof TypeError ? 'refused' : 'other error'
      }
    })
    expect(seen).toBe('refused')
  })

  it('gives the copy the body even after the original was cloned', async () => {
    const { seen } = await deliverOne(async (req) => {
      const first = await req.clone().text()
      const copy = new Request(req)
      return { same: (await copy.text()) === first, used: req.bodyUsed }
    })
    expect(seen).toEqual({ same: true, used: true })
  })
})
