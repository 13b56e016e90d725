// What a kiosk process under measurement costs, read from outside it: its CPU time and resident memory as the OS sees
// them (/proc), and its event-loop delay as it measures it itself (launch/web.ts, KIOSK_EVENT_LOOP_REPORT). Shared by
// the issue 14 benches that run the kiosk as a child process (kiosk-soak, history-scale).
import { readFileSync } from 'node:fs';
import type { NodeProcess } from '../../test/support/node-process.ts';

/** Linux's USER_HZ: the unit of utime and stime in /proc/<pid>/stat (`getconf CLK_TCK` is 100 on every Linux ABI). */
const CLOCK_TICKS_PER_SECOND = 100;

/** Resident memory of a process in MiB, as /proc/<pid>/status says. */
export function rssMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Math.round((Number(match[1]) / 1024) * 10) / 10;
}

/** CPU time (user + system) a process has used, in ms. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; fields 14 and 15 count from after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

/** Asks the kiosk for its event-loop delay since the previous ask (launch/web.ts, KIOSK_EVENT_LOOP_REPORT=1). */
export async function loopDelay(kiosk: NodeProcess): Promise<LoopDelay> {
  const count = () => kiosk.stdout().split('\nevent-loop-delay ').length;
  const before = count();
  kiosk.child.kill('SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (count() === before) {
    if (Date.now() > deadline) throw new Error('the kiosk did not report its event-loop delay (KIOSK_EVENT_LOOP_REPORT)');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const lines = kiosk.stdout().split('\nevent-loop-delay ');
  return JSON.parse((lines[lines.length - 1] as string).split('\n')[0] as string) as LoopDelay;
}
