// The web UI's first load (issue 20): what the first page fetches (HTML, JS, CSS and the rest),
// each body's size as served and gzipped (-9, as a reverse proxy's gzip would send it; the wasm
// engine is counted apart and must not be fetched by the first page), and the time to
// interactive in headless Chromium: navigation timing (DOMContentLoaded, load) and the first
// input handled (a click on the language button as soon as it can be clicked, until the frame
// after its handler ran), the median of RUNS cold loads (a new browser context each: empty cache,
// no service worker) and of RUNS warm loads (the same context reloaded: cache and service worker).
// Usage: node first_load.mjs --server BUILD/bin/hisha-server --static web/dist --chromium /usr/bin/chromium [--runs 9]
import { gzipSync } from 'node:zlib';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const e2e = path.join(here, '..', '..', 'tests', 'e2e', 'web');
const { chromium } = await import(path.join(e2e, 'node_modules', 'playwright-core', 'index.mjs'));
const { parseArgs, freePort, HishaServer } = await import(path.join(e2e, 'helpers.mjs'));

const args = parseArgs(process.argv);
const runs = Number(args.runs || 9);
const work = mkdtempSync(path.join(tmpdir(), 'hisha-web-bench-'));
const server = new HishaServer({ bin: args.server, db: path.join(work, 'bench.db'), staticDir: args.static, bots: 'hisha-bench=0', extra: ['--requests-per-address', '0'] });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kind = (url, type) => (/\.wasm$|\/wasm\//.test(url) ? 'wasm' : /javascript/.test(type) ? 'js' : /css/.test(type) ? 'css' : /html/.test(type) ? 'html' : 'other');

// In the page before anything runs: the first click's handling, timed to the next frame.
const PROBE = () => {
  document.addEventListener('click', () => {
    if (window.__handled === undefined) requestAnimationFrame(() => (window.__handled = performance.now()));
  }, true);
};

async function load(page, base) {
  await page.goto(base, { waitUntil: 'commit' });
  await page.click('button[name=lang]', { timeout: 30000 });
  await page.waitForFunction(() => window.__handled !== undefined, null, { timeout: 30000 });
  await page.waitForLoadState('load');
  return page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0];
    return { dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd, input: window.__handled };
  });
}

async function main() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  await server.start(port);
  const browser = await chromium.launch({ executablePath: args.chromium, headless: true, args: ['--no-sandbox'] });
  try {
    // What the first page fetches.
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const fetched = [];
    page.on('response', async (r) => {
      if (!r.url().startsWith(base) || r.url().includes('/api/')) return;
      try {
        const body = await r.body();
        fetched.push({ url: r.url().slice(base.length - 1), kind: kind(r.url(), r.headers()['content-type'] || ''), raw: body.length, gz: gzipSync(body, { level: 9 }).length });
      } catch { /* a redirect or a response without a body */ }
    });
    await page.goto(base, { waitUntil: 'networkidle' });
    await page.waitForSelector('form.login');
    await ctx.close();
    const sum = (k, f) => fetched.filter((x) => k(x.kind)).reduce((a, x) => a + x[f], 0);
    const shell = (k) => ['html', 'js', 'css'].includes(k);
    console.log('first page, files fetched (bytes as served / gzip -9):');
    for (const f of fetched) console.log(`  ${f.kind.padEnd(5)} ${String(f.raw).padStart(8)} ${String(f.gz).padStart(8)}  ${f.url}`);
    console.log(`HTML+JS+CSS: ${sum(shell, 'raw')} bytes, ${sum(shell, 'gz')} gzipped (goal under 300 KB = 307200)`);
    console.log(`everything else: ${sum((k) => !shell(k) && k !== 'wasm', 'raw')} bytes; wasm fetched by the first page: ${sum((k) => k === 'wasm', 'raw')} bytes`);

    // Time to interactive, cold and warm.
    const cold = [];
    for (let i = 0; i < runs; i++) {
      const c = await browser.newContext();
      await c.addInitScript(PROBE);
      cold.push(await load(await c.newPage(), base));
      await c.close();
    }
    const warm = [];
    const wc = await browser.newContext();
    await wc.addInitScript(PROBE);
    const wp = await wc.newPage();
    await load(wp, base);
    await wp.evaluate(() => navigator.serviceWorker?.ready);
    for (let i = 0; i < runs; i++) warm.push(await load(wp, base));
    await wc.close();
    for (const [name, xs] of [['cold', cold], ['warm', warm]])
      console.log(`${name} (median of ${xs.length}): DOMContentLoaded ${median(xs.map((x) => x.dcl)).toFixed(0)} ms, load ${median(xs.map((x) => x.load)).toFixed(0)} ms, first input handled ${median(xs.map((x) => x.input)).toFixed(0)} ms (min ${Math.min(...xs.map((x) => x.input)).toFixed(0)}, max ${Math.max(...xs.map((x) => x.input)).toFixed(0)})`);
  } finally {
    await browser.close();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
