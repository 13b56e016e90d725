// issue 14 "cold start": the first number or date format a page makes loads ICU's data, 15-30 ms of the main thread
// in a fresh Chromium renderer (measured); the Sale screen's first render formats the amount and the clock. This
// small script is async and its own file (the content policy allows no inline script): it runs while the main thread
// would idle, as the main script is compiled off it, so that first render does not pay for ICU. Nothing here is kept.
new Intl.NumberFormat('es', { style: 'currency', currency: 'ARS' }).format(0);
new Intl.DateTimeFormat('es', { hour: '2-digit', minute: '2-digit' }).format(0);
