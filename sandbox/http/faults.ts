import type { Random } from '../ids.ts';
import type { FaultRequest } from '../../shared/schemas/sandbox-control.ts';

/** A compiled fault path pattern. */
export interface PathMatcher {
  test(path: string): boolean;
}

export interface Fault extends FaultRequest {
  id: number;
  pattern: PathMatcher;
}

/**
 * A path pattern the sandbox will not install: `invalid` when it is not a pattern at all (a regex that does not
 * compile), `unsafe` when matching it could take too long (issue 12: a fault rule must not become a ReDoS).
 */
export class PathPatternError extends Error {
  constructor(
    readonly reason: 'invalid' | 'unsafe',
    message: string,
  ) {
    super(message);
    this.name = 'PathPatternError';
  }
}

/** issue 12: a glob's matching time grows with its wildcards times the path's length; this keeps it to a few ms. */
export const MAX_GLOB_WILDCARDS = 16;
/** issue 12: the longest regular expression a fault rule may carry (globs have the schema's own cap). */
export const MAX_REGEX_LENGTH = 200;
/** issue 12: a regular expression is only tried on paths up to this long; a longer path never matches it. */
export const MAX_REGEX_INPUT = 512;
/**
 * issue 12: the most ways a regular expression may have to match a path of MAX_REGEX_INPUT characters (the product of
 * its quantifiers' repeat counts and its alternatives, see regexHazard). At this bound V8 needs a few milliseconds
 * in the worst case; `^.*.*.*x` (about 2.2e7) is past it.
 */
const MAX_REGEX_PATHS = 1_000_000;

/**
 * Fault injection for reliability tests (issue 2, POST /sandbox/faults). A path pattern is a glob: `*` matches within
 * one path segment, `**` across segments. A pattern starting with `^` is a regular expression, accepted only when it
 * is safe and bounded (issue 12, see compile).
 */
export class FaultTable {
  #faults: Fault[] = [];
  #next = 1;
  constructor(private readonly random: Random) {}

  /** Throws PathPatternError for a refused pattern; nothing is added then. */
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

/**
 * A fault path pattern, compiled. A glob (the default form) is matched without regular expressions, in time
 * proportional to pattern × path, and has at most MAX_GLOB_WILDCARDS wildcards, so no glob can be slow. A pattern starting with `^` is a regular expression (with
 * the `u` flag: strict syntax), refused with PathPatternError unless regexHazard finds nothing, and then tried only on
 * paths of at most MAX_REGEX_INPUT characters.
 */
export function compile(pattern: string): PathMatcher {
  if (!pattern.startsWith('^')) return compileGlob(pattern);
  if (pattern.length > MAX_REGEX_LENGTH) {
    throw new PathPatternError('unsafe', `path pattern is refused: a regular expression may have at most ${MAX_REGEX_LENGTH} characters, this one has ${pattern.length} (use a glob such as /v1/orders/*/cancel)`);
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    throw new PathPatternError('invalid', `path pattern ${pattern} is not a valid regular expression`);
  }
  const hazard = regexHazard(pattern, MAX_REGEX_INPUT);
  if (hazard) throw new PathPatternError('unsafe', `path pattern ${pattern} is refused: ${hazard}`);
  return { test: (path) => path.length <= MAX_REGEX_INPUT && regex.test(path) };
}

const SEGMENT = 0; // `*`: any run of characters but `/`
const ANY = 1; // `**`: any run of characters
type GlobToken = string | typeof SEGMENT | typeof ANY;

function compileGlob(glob: string): PathMatcher {
  const tokens: GlobToken[] = [];
  for (let i = 0; i < glob.length; ) {
    if (glob[i] === '*') {
      const run = /^\*+/.exec(glob.slice(i))?.[0].length ?? 1;
      tokens.push(run >= 2 ? ANY : SEGMENT);
      i += run;
    } else {
      const end = glob.indexOf('*', i);
      tokens.push(glob.slice(i, end === -1 ? glob.length : end));
      i = end === -1 ? glob.length : end;
    }
  }
  const wildcards = tokens.filter((t) => typeof t !== 'string').length;
  if (wildcards > MAX_GLOB_WILDCARDS) {
    throw new PathPatternError('unsafe', `path pattern is refused: a glob may have at most ${MAX_GLOB_WILDCARDS} wildcards (* or **), this one has ${wildcards}`);
  }
  if (tokens.length === 1 && typeof tokens[0] === 'string') {
    const literal = tokens[0];
    return { test: (path) => path === literal };
  }
  return { test: (path) => matchGlob(tokens, path) };
}

/** Which path positions each token can end at, token by token: no backtracking, O(tokens × path length). */
function matchGlob(tokens: readonly GlobToken[], path: string): boolean {
  let reach = new Uint8Array(path.length + 1);
  let next = new Uint8Array(path.length + 1);
  reach[0] = 1;
  for (const token of tokens) {
    next.fill(0);
    let any = false;
    if (typeof token === 'string') {
      for (let j = 0; j + token.length <= path.length; j += 1) {
        if (reach[j] && path.startsWith(token, j)) {
          next[j + token.length] = 1;
          any = true;
        }
      }
    } else {
      let open = false;
      for (let j = 0; j <= path.length; j += 1) {
        if (reach[j]) open = true;
        if (open) {
          next[j] = 1;
          any = true;
        }
        if (token === SEGMENT && path.charCodeAt(j) === 47 /* '/' */) open = false;
      }
    }
    if (!any) return false;
    [reach, next] = [next, reach];
  }
  return reach[path.length] === 1;
}

interface Frame {
  /** Ways to match the alternatives already closed by `|`. */
  closed: number;
  /** Ways to match the alternative being read: the product of its atoms. */
  current: number;
  alternatives: number;
  /** A quantifier or an alternation somewhere inside. */
  nested: boolean;
}

/**
 * issue 12: why a regular expression could take too long to match (null when it cannot), by a conservative reading
 * of its syntax, not by running it. Refused: backreferences (`\1`, `\k<name>`) and lookaround (`(?=`, `(?!`, `(?<=`,
 * `(?<!`), which no bound below covers; a repeated group (`*`, `+`, `{n,m}` with m > 1) holding a quantifier or an
 * alternation, the nested quantifiers of exponential backtracking (`(a+)+$`, `(a|a)*$`; write `[ab]+` for
 * `(a|b)+`); and, because even flat quantifiers multiply (`^.*.*.*x` is cubic), an upper bound on the ways to match a
 * path of `maxInput` characters above MAX_REGEX_PATHS: a repeat has up to maxInput + 1 counts, `?` two, an alternation
 * the sum of its branches, a sequence the product of its parts. The source is valid with the `u` flag (compile checked).
 */
export function regexHazard(source: string, maxInput: number): string | null {
  const stack: Frame[] = [{ closed: 0, current: 1, alternatives: 1, nested: false }];
  const top = (): Frame => stack[stack.length - 1] as Frame;
  // The last atom, not yet multiplied into its frame because a quantifier may follow.
  let atom: { ways: number; nested: boolean } | null = null;
  const flush = (): void => {
    if (atom) top().current = Math.min(top().current * atom.ways, Number.MAX_SAFE_INTEGER);
    atom = null;
  };
  for (let i = 0; i < source.length; ) {
    const c = source[i] as string;
    if (c === '\\') {
      flush();
      const next = source[i + 1] ?? '';
      if (/[1-9]/.test(next)) return `it uses a backreference (\\${next}), which can take exponential time`;
      if (next === 'k') return 'it uses a named backreference (\\k<…>), which can take exponential time';
      // \p{…}, \P{…} and \u{…} are one atom; their braces are not a quantifier.
      i = /[pPu]/.test(next) && source[i + 2] === '{' ? past(source, '}', i) : i + 2;
      atom = { ways: 1, nested: false };
    } else if (c === '[') {
      flush();
      let j = i + 1;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      i = j + 1;
      atom = { ways: 1, nested: false };
    } else if (c === '(') {
      flush();
      const head = source.slice(i, i + 4);
      if (head.startsWith('(?=') || head.startsWith('(?!') || head.startsWith('(?<=') || head.startsWith('(?<!')) {
        return `it uses a lookahead or lookbehind (${head.startsWith('(?<') ? head : head.slice(0, 3)}…), which is not allowed in a fault rule`;
      }
      i = head.startsWith('(?:') ? i + 3 : head.startsWith('(?<') ? past(source, '>', i) : i + 1;
      stack.push({ closed: 0, current: 1, alternatives: 1, nested: false });
    } else if (c === ')') {
      flush();
      const group = stack.pop() as Frame;
      const nested = group.nested || group.alternatives > 1;
      if (nested) top().nested = true;
      atom = { ways: group.closed + group.current, nested };
      i += 1;
    } else if (c === '|') {
      flush();
      const frame = top();
      frame.closed += frame.current;
      frame.current = 1;
      frame.alternatives += 1;
      i += 1;
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      const counted = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i)) : null;
      if (c === '{' && !counted) return 'a { that is not a quantifier ({n}, {n,} or {n,m})';
      const [min, max, length] = counted
        ? [Number(counted[1]), counted[2] === undefined ? Number(counted[1]) : counted[3] ? Number(counted[3]) : Infinity, counted[0].length]
        : c === '*'
          ? [0, Infinity, 1]
          : c === '+'
            ? [1, Infinity, 1]
            : [0, 1, 1];
      i += length;
      if (source[i] === '?') i += 1; // lazy: the same ways, tried in another order
      if (!atom) return 'a quantifier has nothing to repeat';
      top().nested = true;
      if (max > 1) {
        if (atom.nested) return 'it repeats a group that holds a quantifier or an alternation (nested quantifiers, as in (a+)+, can take exponential time)';
        atom = { ways: Math.min(max, maxInput) - Math.min(min, maxInput) + 1, nested: false };
      } else if (max === 0) {
        atom = { ways: 1, nested: false };
      } else if (min === 0) {
        atom = { ways: atom.ways + 1, nested: atom.nested };
      }
      flush();
    } else {
      flush();
      atom = { ways: 1, nested: false };
      i += 1;
    }
  }
  flush();
  const root = stack[0] as Frame;
  // A top-level alternative after the first is not anchored by the leading ^: it is tried at every position.
  const ways = (root.closed + root.current) * (root.alternatives > 1 ? maxInput + 1 : 1);
  if (ways > MAX_REGEX_PATHS) {
    return `it has too many ways to match (its quantifiers and alternatives allow more than ${MAX_REGEX_PATHS.toLocaleString('en')} on a ${maxInput}-character path); use fewer *, +, {n,m}, ? or |, or a glob`;
  }
  return null;
}

/** The index just past the next `char` from `from`, or the end of `source` when there is none. */
function past(source: string, char: string, from: number): number {
  const at = source.indexOf(char, from);
  return at === -1 ? source.length : at + 1;
}
