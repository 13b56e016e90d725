import { mount } from 'svelte';
import App from './App.svelte';
import { createBridge } from './lib/bridge.ts';
import { i18n } from './lib/i18n.svelte.ts';
import { KioskState } from './lib/kiosk.svelte.ts';
import { cashier } from './components/people/cashier.svelte.ts';
import './app.css';

// issue 14 "cold start": the first reads (session, settings, cashier...) go with this script, at the same time as the
// language loads and before the mount, not after them: the server answers them while the page gets ready. Who is
// selling is part of them (issue 17: a required sign-in never flashes the Sale screen).
const kiosk = new KioskState(createBridge());
const started = Promise.all([kiosk.init(), cashier.load(kiosk.bridge)]);

// The words come one language at a time (i18n/load-language.ts); the first screen renders once its language is here
// (the build preloads the default one beside this script: renderer/vite.config.ts), so no text is ever shown as a key
// or in a language about to change. Not a top-level await: the screens' chunks import from this one, and an entry that
// awaits at its top makes the bundler split its shared code into many more files.
void i18n.ready().then(() => mount(App, { target: document.getElementById('app') as HTMLElement, props: { kiosk, started } }));
