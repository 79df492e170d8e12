// A webhook receiver written as a user would, with node:crypto only: it tells which of the
// destination's known secrets (oldest first) produced a v1 signature of the raw body, in its status:
// 200 only the old secret, 201 the old and the new one (during a roll's overlap), 202 only the new
// one, 400 none. Used by scenarios/secret-roll.yaml through `receivers[].client`.
import { createHmac, timingSafeEqual } from 'node:crypto'

interface Context {
  secrets(): string[]
  prefix: string
  processed(eventId: string): void
}

const TOLERANCE_S = 300

export function receiver(ctx: Context) {
  return async (req: Request): Promise<Response> => {
    const raw = await req.text()
    const header = req.headers.get(`${ctx.prefix}-Signature`) ?? ''
    const parts = header.split(',').map((p) => p.split('='))
    const t = parts.find(([k]) => k === 't')?.[1] ?? ''
    const v1 = parts.filter(([k]) => k === 'v1').map(([, v]) => v ?? '')
    const known = ctx.secrets()
    const matches = known.map((secret) => {
      const mac = Buffer.from(createHmac('sha256', secret).update(`${t}.${raw}`, 'utf8').digest('hex'))
      return v1.some((v) => v.length === mac.length && timingSafeEqual(Buffer.from(v), mac))
    })
    const old = matches[0] === true
    const fresh = known.length > 1 && matches[known.length - 1] === true
    if (old && fresh) return new Response('old and new', { status: 201 })
    if (old) return new Response('old only', { status: 200 })
    if (fresh) return new Response('new only', { status: 202 })
    return new Response('no known secret signed this', { status: 400 })
  }
}
