import Fastify, { type FastifyInstance } from 'fastify'
import { type MirrorAppConfig, mirrorWebhook } from './express-mirror.js'

/**
 * The same subscription mirror on Fastify: JSON bodies are kept as raw bytes (the signature is
 * over them), and `POST /webhook` runs the same handler as the Express app.
 */
export function fastifyMirrorApp(config: MirrorAppConfig): FastifyInstance {
  const app = Fastify()
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body))
  app.post('/webhook', async (req, reply) => {
    const status = await mirrorWebhook(config, req.body as Buffer, String(req.headers['stripe-signature'] ?? ''))
    return reply.code(status).send(status === 200 ? 'ok' : 'no')
  })
  return app
}
