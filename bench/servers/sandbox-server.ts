// Benchmark server: an in-memory sandbox (issue 2) on 127.0.0.1:0 in its own process (bench/lib/child.ts protocol).
import { buildSandbox } from '../../sandbox/app.ts';
import { serveAsChild } from '../lib/child.ts';

await serveAsChild(async () => {
  const sandbox = buildSandbox({ sweepIntervalMs: false });
  const url = await sandbox.listen(0, '127.0.0.1');
  return { url, close: () => sandbox.close() };
});
