import type { Random } from '../ids.ts';
import type { FaultRequest } from '../../shared/schemas/sandbox-control.ts';

export interface Fault extends FaultRequest {
  id: number;
  pattern: RegExp;
}

/**
 * Fault injection for reliability tests (issue 2, POST /sandbox/faults). A path pattern is a glob: `*` matches within
 * one path segment, `**` across segments; a pattern starting with `^` is a regular expression as is.
 */
export class FaultTable {
  #faults: Fault[] = [];
  #next = 1;
  constructor(private readonly random: Random) {}

  add(request: FaultRequest): Fault {
    const fault: Fault = { ...request, id: this.#next++, pattern: compile(request.path) };
    this.#faults.push(fault);
    return fault;
  }
  clear(): void {
    this.#faults = [];
  }
  list(): Fault[] {
    return [...this.#faults];
  }
  /** The first fault that matches and whose dice roll (rate) fires. */
  pick(method: string, path: string): Fault | undefined {
    for (const fault of this.#faults) {
      if (fault.method !== '*' && fault.method.toUpperCase() !== method.toUpperCase()) continue;
      if (!fault.pattern.test(path)) continue;
      if (this.random() < fault.rate) return fault;
    }
    return undefined;
  }
}

export function compile(glob: string): RegExp {
  if (glob.startsWith('^')) {
    try {
      return new RegExp(glob);
    } catch {
      throw new Error(`path pattern ${glob} is not a valid regular expression`);
    }
  }
  const escaped = glob
    .split('**')
    .map((part) => part.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*'))
    .join('.*');
  return new RegExp(`^${escaped}$`);
}
