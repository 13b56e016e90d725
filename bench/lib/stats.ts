// Percentiles for the benchmark figures. Nearest-rank, so a p99 is always a latency that was actually observed.

/** Nearest-rank percentile of an ascending array; NaN when it is empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export interface Distribution {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** p50/p90/p99/max/mean of the finite values, rounded to microseconds (values in ms). */
export function distribution(values: readonly number[]): Distribution {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const mean = sorted.length === 0 ? Number.NaN : sorted.reduce((sum, v) => sum + v, 0) / sorted.length;
  return {
    count: sorted.length,
    p50: round3(percentile(sorted, 50)),
    p90: round3(percentile(sorted, 90)),
    p99: round3(percentile(sorted, 99)),
    max: round3(sorted[sorted.length - 1] ?? Number.NaN),
    mean: round3(mean),
  };
}

export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Median of a few runs (cold starts): robust to one run that met a busy moment. */
export function median(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
}
