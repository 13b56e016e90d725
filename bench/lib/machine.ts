import { availableParallelism, cpus, loadavg, release, totalmem, type as osType } from 'node:os';

/** The machine a run was measured on (docs/benchmarks.md reports it beside every figure). */
export interface Machine {
  cpu: string;
  cpus: number;
  memoryGiB: number;
  os: string;
  node: string;
}

export function describeMachine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cpus: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
  };
}

/** The 1, 5 and 15 minute load averages, rounded: recorded before and after every bench (a busy machine inflates all). */
export function loadAverage(): [number, number, number] {
  const [a = 0, b = 0, c = 0] = loadavg();
  return [Math.round(a * 100) / 100, Math.round(b * 100) / 100, Math.round(c * 100) / 100];
}
