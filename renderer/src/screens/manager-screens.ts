// issue 5 "Done when" (under 100 KB gzip, every script counted): the screens a manager opens (History, Settings, the
// setup assistant, Reports) share most of their components, and one chunk of them compresses about 5 KB smaller than
// one chunk per screen (the gzip of each file starts from nothing). They stay out of the first script (issue 14 "cold
// start"): App.svelte imports this module when the first of them is shown. The scripts come from the kiosk's own
// disk or loopback server, so loading the other three screens with the first costs nothing a cashier sees.
export { default as History } from './History.svelte';
export { default as Settings } from './Settings.svelte';
export { default as Setup } from './Setup.svelte';
export { default as Reports } from './Reports.svelte';
