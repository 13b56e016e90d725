import { mount } from 'svelte';
import App from './App.svelte';
import { i18n } from './lib/i18n.svelte.ts';
import './app.css';

// issue 14 "cold start": the words come one language at a time (i18n/load-language.ts); the first screen renders once
// its language is here (the build preloads the default one beside this script: renderer/vite.config.ts), so no text is
// ever shown as a key or in a language about to change. Not a top-level await: the screens' chunks import from this
// one, and an entry that awaits at its top makes the bundler split its shared code into many more files.
void i18n.ready().then(() => mount(App, { target: document.getElementById('app') as HTMLElement }));
