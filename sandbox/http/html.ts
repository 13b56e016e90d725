/** Escapes text for HTML element and attribute content. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/**
 * A small self-contained page: no scripts, no external assets, large touch-friendly buttons. `lang` is the page's
 * language; `head` adds elements to <head> (the payer page's refresh).
 */
export function page(title: string, body: string, options: { lang?: string; head?: string } = {}): string {
  return `<!doctype html>
<html lang="${escapeHtml(options.lang ?? 'en')}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${options.head ?? ''}
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f3f5f8;color:#111}
main{max-width:420px;margin:40px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px rgba(0,0,0,.08)}
h1{font-size:1.3rem;margin:0 0 8px}.amount{font-size:2.4rem;font-weight:700;margin:16px 0}
.muted{color:#444}.badge{display:inline-block;background:#fff3cd;color:#5c4400;padding:2px 8px;border-radius:6px;font-size:.85rem;margin-bottom:12px}
form{display:inline}button{font-size:1.1rem;min-height:48px;min-width:140px;border:0;border-radius:8px;margin:8px 8px 0 0;cursor:pointer}
.approve{background:#0b6b2b;color:#fff}.wallet{background:#1d4ed8;color:#fff}input{font-size:1.05rem;min-height:44px;width:100%;box-sizing:border-box;margin:6px 0}label{display:block;margin-top:16px}.reject{background:#a4161a;color:#fff}button:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
</style></head><body><main>${body}</main></body></html>`;
}
