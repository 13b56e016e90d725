// Benchmark baseline (issue 7 "sandbox create-order throughput ... baseline: a bare Fastify route"): the same framework
// and the same request (JSON body parsed, headers read), answered with a canned order of the sandbox's size; no
// validation, authentication, idempotency or state. What is left is Fastify and node:http on this machine.
import Fastify from 'fastify';
import { serveAsChild } from '../lib/child.ts';

await serveAsChild(async () => {
  const app = Fastify({ logger: false });
  let counter = 0;
  app.post('/v1/orders', async (request, reply) => {
    counter += 1;
    const body = request.body as { total_amount?: string; external_reference?: string };
    const key = request.headers['x-idempotency-key'];
    reply.code(201).header('x-seen-key', typeof key === 'string' ? key.length : 0);
    return {
      id: `ORDTST${String(counter).padStart(23, '0')}`,
      type: 'qr',
      processing_mode: 'automatic',
      external_reference: body?.external_reference ?? '',
      total_amount: body?.total_amount ?? '0',
      country_code: 'AR',
      currency: 'ARS',
      status: 'created',
      status_detail: 'created',
      created_date: new Date().toISOString(),
      last_updated_date: new Date().toISOString(),
      expiration_time: 'PT15M',
      user_id: '100000001',
      integration_data: { application_id: '7000000001' },
      config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } },
      transactions: { payments: [{ id: `PAY${String(counter).padStart(26, '0')}`, amount: body?.total_amount ?? '0', status: 'created', status_detail: 'ready_to_process' }] },
      type_response: { qr_data: '00020101021243650016com.mercadolibre020130636261ba79b-e543-41c7-b71a-cec05c18e72b50120008326594305204970053030325802AR5904Test6004CABA63041094' },
    };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  return { url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
});
