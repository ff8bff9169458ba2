// Browser test of the player page and the game page (issue 20), Chromium against a real
// hisha-server: alice plays bob to the end (her move dragged on the board, bob's through the
// API, bob resigns); alice's player page lists the game with its rating history point, results
// by colour, the opponent filter keeps and drops it; the replay shows every move's clock time and
// the arrow, Home and End keys step the move list; the one-game and all-games downloads parse
// (the .kif is Shift_JIS); a watcher raises the spectators count and kibitzes, a chat line can be muted;
// the embed page renders inside a frame of another origin while the game page is refused there.
// Screenshots of the player page, the replay and the embed go to --out.
import { strict as assert } from 'node:assert';
import path from 'node:path';
import http from 'node:http';
import { T, parseArgs, freePort, HishaServer, registerOn, play, waitPlies, screenshots, runBrowserTest, client } from './helpers.mjs';

const args = parseArgs(process.argv);
const server = new HishaServer({ bin: args.server, db: path.join(args.work, 'players.db'), staticDir: args.static, bots: 'hisha-test=0' });

const shot = screenshots(args.out, { fullPage: true });

async function person(browser, base, name) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log(`[${name}] page error: ${e.message}`));
  await registerOn(page, base, name);
  return { ctx, page };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/// alice (Black, on her page) and bob (the API) play 7g7f 3c3d 2g2f, and bob resigns.
async function playGame(alice, aliceApi, bobApi) {
  const g = await aliceApi('POST', 'games', { opponent: 'bob', color: 'black', time_control: '600-10' });
  await alice.goto(`${alice.url().split('#')[0]}#/game/${g.id}`);
  await alice.waitForSelector('sg-board', { timeout: T });
  await sleep(1200); // alice thinks over a second: her first move's time is at least 1 s
  await play(alice, '7g7f');
  await waitPlies(alice, 1);
  await bobApi('POST', `games/${g.id}/move`, { move: '3c3d' });
  await waitPlies(alice, 2);
  await aliceApi('POST', `games/${g.id}/move`, { move: '2g2f' });
  await bobApi('POST', `games/${g.id}/resign`);
  await alice.waitForSelector('.banner:not([hidden])', { timeout: T });
  return g.id;
}

async function playerPage(alice, base, id) {
  await alice.goto(`${base}#/player/alice`);
  const row = `table.games tr[data-game="${id}"]`;
  await alice.waitForSelector(row, { timeout: T });
  assert.match(await alice.textContent(`${row} td.result`), /win/);
  assert.equal(await alice.locator('svg.rating-plot circle.point').count(), 1, 'one rated game, one point');
  assert.ok(Number(await alice.getAttribute('svg.rating-plot circle.point', 'data-rating')) > 1500);
  const cells = (sel) => alice.$$eval(sel, (els) => els.map((e) => e.textContent.trim()).join('|'));
  assert.equal(await cells('table.by-color tbody tr:first-child :is(th, td)'), '☗ Black|1|0|0|100%');
  assert.equal(await cells('table.by-color tbody tr:last-child :is(th, td)'), '☖ White|0|0|0|—');
  assert.equal(await cells('table.by-tc tbody tr :is(th, td)'), '600-10|1|0|0|100%');
  await shot(alice, 'player-page');
  // The opponent filter keeps the game for bob, drops it for carol.
  await alice.fill('form.filters input[name=opponent]', 'carol');
  await alice.click('form.filters button[name=filter]');
  await alice.waitForSelector(row, { state: 'detached', timeout: T });
  await alice.fill('form.filters input[name=opponent]', 'bo');
  await alice.click('form.filters button[name=filter]');
  await alice.waitForSelector(row, { timeout: T });
  await alice.selectOption('form.filters select[name=result]', 'loss');
  await alice.click('form.filters button[name=filter]');
  await alice.waitForSelector(row, { state: 'detached', timeout: T });
  await alice.selectOption('form.filters select[name=result]', '');
  await alice.click('form.filters button[name=filter]');
  await alice.waitForSelector(row, { timeout: T });
  await shot(alice, 'player-page-filtered');
  await downloads(alice, row);
  await alice.click(`${row} a.replay`);
}

/// The one game's KIF and all games' KIF (Shift_JIS), KIFU and CSA, fetched as the links give them.
async function downloads(alice, row) {
  const fetchBytes = (sel) => alice.evaluate(async (s) => {
    const a = document.querySelector(s);
    const r = await fetch(a.getAttribute('href'));
    const bytes = new Uint8Array(await r.arrayBuffer());
    let utf8 = true;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      utf8 = false;
    }
    return { type: r.headers.get('content-type'), sjis: new TextDecoder('shift_jis').decode(bytes), utf8, text: new TextDecoder().decode(bytes) };
  }, sel);
  const one = await fetchBytes(`${row} a.download[href$="format=kif"]`);
  assert.equal(one.type, 'text/plain; charset=shift_jis');
  assert.equal(one.utf8, false, 'the .kif is not UTF-8');
  assert.match(one.sjis, /先手：alice/);
  assert.match(one.sjis, /７六歩/);
  const all = await fetchBytes('.download-all a[data-format=kif]');
  assert.match(all.sjis, /後手：bob/);
  assert.match(all.sjis, /投了/);
  const kifu = await fetchBytes('.download-all a[data-format=kifu]');
  assert.equal(kifu.utf8, true);
  assert.match(kifu.text, /２六歩/);
  const csa = await fetchBytes('.download-all a[data-format=csa]');
  assert.match(csa.text, /\+7776FU[\s\S]*-3334FU[\s\S]*\+2726FU[\s\S]*%TORYO/);
}

/// The replay: each move's time, the arrow, Home and End keys.
async function replay(alice) {
  await waitPlies(alice, 3);
  const times = await alice.$$eval('ol.moves li .move-time', (els) => els.map((e) => [Number(e.dataset.ms), e.textContent.trim()]));
  assert.equal(times.length, 4, 'three moves and the resignation');
  assert.ok(times[0][0] >= 1000, `alice's first move took over a second: ${times[0]}`);
  for (const [ms, text] of times) assert.match(text, /^\d+s$|^\d+:\d\d$/, `${ms} ${text}`);
  await shot(alice, 'replay');
  const current = () => alice.$$eval('ol.moves li', (els) => els.findIndex((e) => e.classList.contains('current')));
  await alice.locator('body').click({ position: { x: 5, y: 5 } });
  await alice.keyboard.press('Home');
  await alice.waitForFunction(() => !document.querySelector('ol.moves li.current'), null, { timeout: T });
  await alice.keyboard.press('ArrowRight');
  await alice.waitForFunction(() => document.querySelector('ol.moves li.current')?.dataset.ply === '1', null, { timeout: T });
  await alice.keyboard.press('ArrowRight');
  await alice.waitForFunction(() => document.querySelector('ol.moves li.current')?.dataset.ply === '2', null, { timeout: T });
  await alice.keyboard.press('ArrowLeft');
  await alice.waitForFunction(() => document.querySelector('ol.moves li.current')?.dataset.ply === '1', null, { timeout: T });
  await shot(alice, 'replay-first-move');
  await alice.keyboard.press('End');
  await alice.waitForFunction(() => document.querySelectorAll('ol.moves li')[3].classList.contains('current'), null, { timeout: T });
  assert.equal(await current(), 3);
}

/// carol watches: alice's count rises and falls when she leaves; bob's chat line shows on alice's
/// page until alice mutes him (kept in localStorage), and no more after it.
async function spectators(browser, base, alice, bobApi, id) {
  await alice.waitForSelector('.spectators[data-count="0"]', { timeout: T });
  const { ctx, page: carol } = await person(browser, base, 'carol');
  await carol.goto(`${base}#/game/${id}`);
  await carol.waitForSelector('ol.moves li', { timeout: T });
  await alice.waitForSelector('.spectators[data-count="1"]', { timeout: T });
  assert.match(await alice.getAttribute('.spectators', 'title'), /carol/);
  await bobApi('POST', `games/${id}/say`, { text: 'well played' });
  await alice.waitForSelector('ul.chat li.say[data-from=bob]', { timeout: T });
  await shot(alice, 'spectator-and-chat');
  await alice.click('ul.chat li[data-from=bob] button.mute');
  await alice.waitForSelector('ul.chat li[data-from=bob]', { state: 'detached', timeout: T });
  assert.deepEqual(await alice.evaluate(() => JSON.parse(localStorage.getItem('hisha.muted'))), ['bob']);
  await bobApi('POST', `games/${id}/say`, { text: 'still there?' });
  await sleep(1000);
  assert.equal(await alice.locator('ul.chat li[data-from=bob]').count(), 0, 'muted');
  await alice.click('.muted-list button[name=unmute]');
  assert.deepEqual(await alice.evaluate(() => JSON.parse(localStorage.getItem('hisha.muted'))), []);
  // carol, watching, kibitzes: marked as such on alice's page.
  await carol.fill('input[name=say]', 'nice game');
  await carol.press('input[name=say]', 'Enter');
  await alice.waitForSelector('ul.chat li.kibitz[data-from=carol]', { timeout: T });
  await shot(alice, 'kibitz');
  await carol.goto(`${base}#/player/carol`); // leaving the game page stops watching
  await alice.waitForSelector('.spectators[data-count="0"]', { timeout: T });
  await ctx.close();
}

/// The embed page in frames of another origin (a page the test serves on another port): it
/// renders, while the game page is refused in the same place.
async function embed(browser, base, id) {
  const res = await fetch(`${base}embed/${id}`);
  assert.match(res.headers.get('content-security-policy'), /frame-ancestors \*/);
  assert.equal(res.headers.get('x-frame-options'), null);
  const game = await fetch(`${base}`);
  assert.match(game.headers.get('content-security-policy'), /frame-ancestors 'none'/);
  assert.equal(game.headers.get('x-frame-options'), 'DENY');
  const ctx = await browser.newContext({ viewport: { width: 1000, height: 600 } });
  const page = await ctx.newPage();
  page.on('requestfailed', (r) => console.log(`[other site] ${r.url()}: ${r.failure()?.errorText}`));
  page.on('console', (m) => console.log(`[other site] ${m.text()}`));
  page.on('pageerror', (e) => console.log(`[other site] page error: ${e.message}`));
  // Another site: a server of the test's own on another port (another origin), whose page frames both.
  const html = `<h1>Another site</h1>
    <iframe id="embed" src="${base}embed/${id}" width="420" height="520"></iframe>
    <iframe id="page" src="${base}#/game/${id}" width="420" height="520"></iframe>`;
  const site = http.createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(html));
  const sitePort = await freePort();
  await new Promise((r) => site.listen(sitePort, '127.0.0.1', r));
  await page.goto(`http://localhost:${sitePort}/`);
  const frame = await (await page.waitForSelector('#embed')).contentFrame();
  await frame.waitForSelector('sg-board piece', { timeout: T });
  await frame.waitForFunction(() => /^4\/4/.test(document.querySelector('.embed-status')?.textContent || ''), null, { timeout: T });
  await frame.click('button[name=first]');
  await frame.waitForFunction(() => /^0\/4/.test(document.querySelector('.embed-status').textContent), null, { timeout: T });
  await frame.click('button[name=next]');
  await frame.waitForFunction(() => /^1\/4/.test(document.querySelector('.embed-status').textContent), null, { timeout: T });
  const blocked = await (await page.$('#page')).contentFrame();
  await sleep(1000);
  assert.equal(await blocked.$('sg-board').catch(() => null), null, 'the game page is not shown in a frame');
  await shot(page, 'embed-in-another-site');
  await ctx.close();
  site.close();
}

async function main() {
  await runBrowserTest(server, args, shot, async (browser, base) => {
    const { page: alice } = await person(browser, base, 'alice');
    await (await person(browser, base, 'bob')).ctx.close();
    const aliceApi = client(base, 'alice'), bobApi = client(base, 'bob');
    const id = await playGame(alice, aliceApi, bobApi);
    await playerPage(alice, base, id);
    await replay(alice);
    await spectators(browser, base, alice, bobApi, id);
    await embed(browser, base, id);
    console.log('players: all checks passed');
  });
}

await main();
