// The browser's engine (issue 20): the analysis board and the tsume solver answer from Hisha's
// engine compiled to WebAssembly (make wasm: dist/wasm/), in a Web Worker, while the server's
// analysis is cut off: the page's 'analyze' messages on the live socket are dropped and
// /api/tsume is refused. Checks a line of the analysis (depth, legality as the server's
// /api/position replays it, western text), a move played and analysed with the network cut
// (the browser's engine tells the board its legal moves), the game graph of a short record, and
// a mate in 3 solved in the page, and Stop ending a deep iteration at once (a new worker answers
// the next request); screenshots.
// Skips (77) when the wasm was not built, outside CI only.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { T, parseArgs, HishaServer, registerOn, screenshots, runBrowserTest } from './helpers.mjs';

const args = parseArgs(process.argv);
if (!fs.existsSync(path.join(args.static, 'wasm', 'hisha.wasm'))) {
  console.log('wasm test: no wasm/hisha.wasm in the web build (make wasm needs emscripten)');
  process.exit(process.env.CI ? 1 : 77);
}
const server = new HishaServer({ bin: args.server, db: path.join(args.work, 'wasm.db'), staticDir: args.static, bots: 'hisha-test=0' });

const shot = screenshots(args.out);

const cut = { analyze: 0, tsume: 0 }; // requests to the server's engine that the test stopped

async function newPage(browser) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  await ctx.routeWebSocket(/\/api\/ws/, (ws) => {
    const srv = ws.connectToServer();
    ws.onMessage((m) => {
      if (/"type":\s*"analyze"/.test(String(m))) cut.analyze += 1;
      else srv.send(m);
    });
    srv.onMessage((m) => ws.send(m));
  });
  await ctx.route('**/api/tsume', (r) => {
    cut.tsume += 1;
    return r.abort();
  });
  await ctx.addInitScript(() => {
    // The engine workers' messages to the page, the workers started and ended.
    window.__engine = { msgs: [], started: 0, ended: 0 };
    const W = window.Worker;
    window.Worker = class extends W {
      constructor(...a) {
        super(...a);
        window.__engine.started += 1;
        this.addEventListener('message', (e) => window.__engine.msgs.push({ type: e.data?.type, id: e.data?.id, depth: e.data?.line?.depth }));
      }
      terminate() {
        window.__engine.ended += 1;
        super.terminate();
      }
    };
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  return page;
}

async function analysis(page, base) {
  const wasm = [];
  page.on('request', (r) => r.url().includes('/wasm/') && wasm.push(r.url()));
  await page.goto(base + '#/analysis');
  await page.waitForSelector('.analysis-page sg-board', { timeout: T });
  assert.deepEqual(wasm, [], 'nothing of the wasm engine is fetched before analysis starts');
  await shot(page, 'analysis-before');
  await page.click('button[name=analyze]');
  await page.waitForSelector('.engine .eval-line .engine-kind[data-engine=browser]', { timeout: T });
  await page.waitForFunction(() => {
    const m = document.querySelector('.engine .eval-line')?.textContent?.match(/depth (\d+)/);
    return m && Number(m[1]) >= 8 && document.querySelectorAll('ol.pv li').length >= 2;
  }, null, { timeout: 60000 });
  const label = await page.textContent('.engine .eval-line');
  assert.match(label, /engine in this browser \(NNUE\)/, `the browser's engine with the network: ${label}`);
  const usi = (await page.getAttribute('ol.pv li', 'data-usi')).split(' ');
  const text = await page.textContent('ol.pv li');
  assert.ok(usi.length >= 4, `a line of several moves: ${usi.join(' ')}`);
  const r = await fetch(base + 'api/position', { method: 'POST', body: JSON.stringify({ moves: usi }) });
  const replay = await r.json();
  assert.equal(r.status, 200, `the line is legal from the start: ${usi.join(' ')} ${JSON.stringify(replay)}`);
  assert.ok(text.includes(replay.moves[0].western), `the line in western notation: ${text}`);
  assert.ok(wasm.some((u) => u.endsWith('/wasm/hisha.wasm')) && wasm.some((u) => u.endsWith('/wasm/hisha.nnue')), wasm.join(' '));
  await shot(page, 'analysis-browser-engine');
  console.log(`wasm: ${label.trim()}: ${text}`);
  await page.click('button[name=analyze]');
}

/// Stop is immediate: with the search inside a deep iteration (a line of depth 10 or more shown),
/// Stop leaves that line shown and nothing more of the analysis arrives (the worker searching is
/// ended: it reads no message until its depth is complete); Analyze again is answered by a new
/// worker (the cached module), with no line of the stopped analysis before its own.
async function stopIsImmediate(page) {
  await page.click('button[name=analyze]');
  await page.waitForFunction(() => Number(document.querySelector('.engine .eval-line')?.textContent?.match(/depth (\d+)/)?.[1]) >= 10, null, { timeout: 60000 });
  const shown = await page.textContent('.engine');
  const before = await page.evaluate(() => {
    const lines = window.__engine.msgs.filter((m) => m.type === 'line');
    const at = { n: window.__engine.msgs.length, id: lines[lines.length - 1].id, depth: lines[lines.length - 1].depth, started: window.__engine.started, ended: window.__engine.ended, t: performance.now() };
    document.querySelector('button[name=analyze]').click(); // Stop
    return at;
  });
  assert.equal(await page.textContent('button[name=analyze]'), 'Analyze');
  assert.equal(await page.textContent('.engine'), shown, 'the last line stays shown after Stop');
  await page.click('button[name=analyze]');
  const answer = await page.waitForFunction((b) => {
    const e = window.__engine;
    const i = e.msgs.findIndex((m, k) => k >= b.n && m.type === 'line' && m.id !== b.id);
    return i >= 0 && { after: e.msgs.slice(b.n, i + 1), started: e.started, ended: e.ended, ms: performance.now() - b.t };
  }, before, { timeout: T });
  const { after, started, ended, ms } = await answer.jsonValue();
  const stale = after.filter((m) => m.id === before.id);
  assert.deepEqual(stale, [], `nothing of the stopped analysis (depth ${before.depth} done) after Stop: ${JSON.stringify(stale)}`);
  assert.deepEqual([started - before.started, ended - before.ended], [1, 1], 'the searching worker ended, a new one started');
  assert.equal(after.find((m) => m.type === 'line').depth, 1, 'the new analysis starts from depth 1');
  console.log(`wasm: stopped during depth ${before.depth + 1}; the new worker's first line ${Math.round(ms)} ms after Stop (${after.map((m) => m.type).join(' ')})`);
  await page.waitForFunction(() => Number(document.querySelector('.engine .eval-line')?.textContent?.match(/depth (\d+)/)?.[1]) >= 4, null, { timeout: 60000 });
  await page.click('button[name=analyze]');
}

/// The network cut: a move played on the board (the browser's engine tells its legal moves and
/// texts) and analysed in the page.
async function offline(page, base) {
  await page.context().setOffline(true);
  await page.fill('input[name=move]', '7g7f');
  await page.press('input[name=move]', 'Enter');
  await page.waitForSelector('.tree .move.current[data-ply="1"]', { timeout: T });
  assert.match(await page.textContent('.tree .move.current'), /P-7f/, 'the move in western notation, offline');
  assert.match(await page.inputValue('input[name=sfen]'), /^lnsgkgsnl\/1r5b1\/ppppppppp\/9\/9\/2P6\/PP1PPPPPP\/1B5R1\/LNSGKGSNL w /);
  await page.click('button[name=analyze]');
  await page.waitForFunction(() => {
    const m = document.querySelector('.engine .eval-line')?.textContent?.match(/depth (\d+)/);
    return m && Number(m[1]) >= 6 && document.querySelector('ol.pv li')?.getAttribute('data-usi');
  }, null, { timeout: 60000 });
  const usi = (await page.getAttribute('ol.pv li', 'data-usi')).split(' ');
  await shot(page, 'analysis-offline');
  await page.click('button[name=analyze]');
  await page.context().setOffline(false);
  const r = await fetch(base + 'api/position', { method: 'POST', body: JSON.stringify({ moves: ['7g7f', ...usi] }) });
  assert.equal(r.status, 200, `the offline line is legal after 7g7f: ${usi.join(' ')}`);
  console.log(`wasm: offline after 7g7f: ${usi.join(' ')}`);
}

/// The game graph from the browser's engine: a record of four moves, five evaluations.
async function graph(page) {
  await page.fill('textarea[name=record]', 'position startpos moves 7g7f 3c3d 2g2f 8c8d');
  await page.click('button[name=load]');
  await page.waitForSelector('.tree .move[data-ply="4"]', { timeout: T });
  await page.click('button[name=graph]');
  await page.waitForFunction(() => {
    const pts = document.querySelector('.graph polyline')?.getAttribute('points') || '';
    return pts.trim().split(' ').filter(Boolean).length === 5;
  }, null, { timeout: 60000 });
  const points = await page.getAttribute('.graph polyline', 'points');
  await page.locator('.graph').scrollIntoViewIfNeeded();
  await shot(page, 'graph-browser-engine');
  console.log(`wasm: graph ${points}`);
}

async function tsume(page) {
  // White's king on 5a between silvers on 6a and 4a, a tokin on 5c: a mate in 3 with two golds in hand.
  await page.fill('input[name=sfen]', '3sks3/9/4+P4/9/9/9/9/9/4K4 b 2G 1');
  await page.press('input[name=sfen]', 'Enter');
  await page.waitForFunction(() => document.querySelector('input[name=sfen]').value.startsWith('3sks3/'), null, { timeout: T });
  await page.click('button[name=solve-current]');
  await page.waitForSelector('.tsume-result', { timeout: 30000 });
  const out = await page.textContent('.tsume-out');
  assert.match(out, /Mate in 3/, `solved: ${out}`);
  assert.match(out, /G\*5b .* G\*4b/, `the mating line: ${out}`);
  assert.ok(await page.locator('.tsume-out .engine-kind[data-engine=browser]').count(), 'solved in the browser');
  await page.locator('.tsume-out').scrollIntoViewIfNeeded();
  await shot(page, 'tsume-browser-engine');
  console.log(`wasm: tsume ${out}`);
}

async function main() {
  // Whatever waits without its own limit (a request, a screenshot): the test ends in 4 minutes.
  setTimeout(() => {
    console.error('wasm test: no end after 240 s\n' + server.log.slice(-3000));
    process.exit(1);
  }, 240000).unref();
  await runBrowserTest(server, args, shot, async (browser, base) => {
    const page = await newPage(browser);
    await registerOn(page, base, 'wasmer');
    await analysis(page, base);
    await stopIsImmediate(page);
    await offline(page, base);
    await graph(page);
    await tsume(page);
    assert.deepEqual(cut, { analyze: 0, tsume: 0 }, 'the server was never asked to analyse or solve');
    assert.deepEqual(await page.evaluate(() => window.__csp), [], 'nothing the Content-Security-Policy blocked');
    console.log('1 passed, 0 failed');
  });
}

await main();
