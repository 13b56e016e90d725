/**
 * The WAI-ARIA tabs pattern's keys (automatic activation): the index of the tab a key moves to from tab `at` of
 * `count`, the arrows wrapping around and Home and End going to the ends; null for any other key. TabList.svelte uses
 * it for the Sale and Settings tabs, so a keyboard (or a scanner's keyboard wedge, or a screen reader) finds the same
 * keys on each.
 */
export function tabAfterKey(key: string, at: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (at + 1) % count;
    case 'ArrowLeft':
      return (at - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
