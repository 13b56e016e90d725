// What every bench returns, and how bench/run.ts prints it. Issue 7: "each figure beside its baseline, measured in the
// same run (these machines are noisy: ratios, not absolute times)". A figure therefore carries its baseline and the
// ratio of the two; the goal of the issue is reported beside it, never asserted (bench/README.md).

export type Unit = 'µs' | 'ms' | 's' | 'req/s' | 'events/s' | 'KiB' | 'MiB' | 'count' | 'bytes';

export interface Figure {
  /** What is measured, e.g. "payment-to-screen p99 (relay)". */
  name: string;
  unit: Unit;
  value: number;
  /** The same measure of the baseline, taken in the same run; null when the figure has none (a count, a size). */
  baseline: number | null;
  /** What the baseline is, in a few words. */
  baselineLabel: string | null;
  /** value / baseline, or null. */
  ratio: number | null;
  /** The issue's goal in words (e.g. "< 100 ms"), or null. */
  goal: string | null;
  /** Whether the goal was met in this run; null when there is no goal. */
  met: boolean | null;
}

export interface FigureInput {
  name: string;
  unit: Unit;
  value: number;
  baseline?: number | null;
  baselineLabel?: string | null;
  goal?: string | null;
  met?: boolean | null;
}

export function figure(input: FigureInput): Figure {
  const baseline = input.baseline ?? null;
  const ratio = baseline !== null && Number.isFinite(baseline) && baseline !== 0 && Number.isFinite(input.value) ? input.value / baseline : null;
  return {
    name: input.name,
    unit: input.unit,
    value: input.value,
    baseline,
    baselineLabel: input.baselineLabel ?? null,
    ratio: ratio === null ? null : Math.round(ratio * 1000) / 1000,
    goal: input.goal ?? null,
    met: input.met ?? null,
  };
}

/** What a bench module's default export resolves to. */
export interface BenchResult {
  bench: string;
  /** Figures, each beside its baseline. */
  figures: Figure[];
  /** Everything else worth keeping: distributions, counts, settings of the run. */
  details: Record<string, unknown>;
}

/** What bench/run.ts hands every bench. */
export interface BenchContext {
  /** The short run (`--quick`): fewer samples, shorter phases; the same figures. */
  quick: boolean;
  /** Prints a line for people (stdout, or stderr under --json so that stdout stays machine-readable). */
  log(line?: string): void;
}

export type Bench = (context: BenchContext) => Promise<BenchResult>;

function show(value: number | null, unit: Unit): string {
  if (value === null || !Number.isFinite(value)) return value === null ? '—' : String(value);
  if (unit === 'count' || unit === 'bytes') return String(Math.round(value));
  if (unit === 'req/s' || unit === 'events/s') return value.toFixed(0);
  if (unit === 'ms') return value < 10 ? value.toFixed(2) : value.toFixed(1);
  return value.toFixed(2);
}

/** The figures as an aligned text table: figure, value, baseline, ratio, goal, met. */
export function figureTable(figures: readonly Figure[]): string[] {
  const header = ['figure', 'value', 'baseline', 'ratio', 'goal', 'met'];
  const rows = figures.map((f) => [
    f.name,
    `${show(f.value, f.unit)} ${f.unit}`,
    f.baseline === null ? '—' : `${show(f.baseline, f.unit)} ${f.unit}${f.baselineLabel ? ` (${f.baselineLabel})` : ''}`,
    f.ratio === null ? '—' : `${f.ratio.toFixed(2)}×`,
    f.goal ?? '—',
    f.met === null ? '—' : f.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}
