/**
 * issue 15 "Stable layout": what a screen has to say in the shell's status line (App.svelte), a reserved line of fixed
 * height under the header, instead of a paragraph of its own that would push its buttons down. `notice` is the Sale
 * screen's short news ("charge of $ 25,00 canceled"); the Sale screen sets and clears it, the shell shows it beside
 * the connectivity banner while the Sale screen is open.
 */
class StatusLine {
  notice = $state<string | null>(null);
}

export const statusLine = new StatusLine();
