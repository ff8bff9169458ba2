// Browser test of the web UI: Chromium through playwright-core against a real hisha-server
// (free loopback port, fresh SQLite database in a scratch directory). Two people in two browser
// contexts register, post and accept a challenge and play to checkmate by drag and drop (a
// promotion through the prompt, a drop); both see the result and the record. Then a game with
// the engine, the server killed and restarted under the page, a KIF file loaded and stepped
// through, a position set up in the editor and solved as tsume, and the engine's analysis. The
// session is an HttpOnly cookie the page cannot read; an administrator (granted with `hisha-server
// admin grant`) announces and bans from the admin page, and "log out everywhere" ends the session
// of another browser. Two CSA clients play with Floodgate's evaluation comments ('* score line)
// and a watcher's game page shows each side's score and line. Every action of the admin page is
// taken through its form. Two CSA players paired by a scheduled tournament's round play, and
// the rating page (reached from the navigation) lists the rated players and the tournament's game
// with a link to its CSA record.
// Screenshots of every step go to --out. Prints the first page load time (navigation timing).
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { T, parseArgs, freePort, HishaServer, registerOn, login, submitForm, squareCenter, play, plies, waitPlies, csaClient } from './helpers.mjs';

const args = parseArgs(process.argv);
const out = args.out;

const csaPort = await freePort();
// A scheduled tournament pairing its CSA players every 2 s, for the rating page.
const server = new HishaServer({
  bin: args.server, db: path.join(args.work, 'web.db'), staticDir: args.static, bots: 'hisha-test=0,hisha-rival=0', csaPort,
  extra: ['--tournament', 'tour-*:2s'],
});
const startServer = (port) => server.start(port);
const stopServer = (signal) => server.stop(signal);

let step = 0;
const started = Date.now();
async function shot(page, name) {
  step += 1;
  const file = path.join(out, `${String(step).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  console.log(`screenshot ${file} (at ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

const cspErrors = [];  // what Chromium reported blocked by the server's Content-Security-Policy

/// `drop`: a filter of the live socket's messages to the page (true: not delivered).
async function register(browser, base, name, drop) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
  if (drop) {
    await ctx.routeWebSocket(/\/api\/ws/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((m) => {
        if (!drop(String(m))) ws.send(m);
      });
    });
  }
  // Spoken moves: headless Chromium has no voices, so the utterances are recorded instead.
  await ctx.addInitScript(() => {
    // Anything the server's Content-Security-Policy blocks (checked before the end).
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    window.__spoken = [];
    if (window.speechSynthesis) window.speechSynthesis.speak = (u) => window.__spoken.push(u.text);
  });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log(`[${name}] page error: ${e.message}`));
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspErrors.push(`[${name}] ${m.text()}`);
  });
  await registerOn(page, base, name);
  return page;
}

/// A token for this test's own requests, as a script gets one (the pages hold none).
async function scriptToken(base, name) {
  const r = await fetch(base + 'api/login', { method: 'POST', body: JSON.stringify({ name, password: `${name}-secret-1` }) });
  return (await r.json()).token;
}

async function main() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  await startServer(port);
  const browser = await chromium.launch({ executablePath: args.chromium, headless: true, args: ['--no-sandbox'] });
  let failed = false;
  try {
    // --- first page load (cold cache), navigation timing
    {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(base, { waitUntil: 'load' });
      const nav = await page.evaluate(() => {
        const e = performance.getEntriesByType('navigation')[0];
        return { load: e.loadEventEnd - e.startTime, dcl: e.domContentLoadedEventEnd - e.startTime };
      });
      await page.waitForSelector('form.login');
      // The footer names the server's version, as `hisha-server --version` does.
      const served = await (await page.request.get(base + 'api/version')).json();
      await page.waitForFunction((v) => document.getElementById('version')?.textContent === `Hisha ${v}`, served.version, { timeout: T });
      console.log(`web: first page load ${nav.load.toFixed(0)} ms (DOMContentLoaded ${nav.dcl.toFixed(0)} ms)`);
      await shot(page, 'login');
      await ctx.close();
    }

    // --- two people, a challenge, a game to checkmate
    // Live events that the test keeps from alice's page while dropGameStarted is set.
    let dropGameStarted = false;
    let dropped = 0;
    const alice = await register(browser, base, 'alice', (m) => {
      const hit = dropGameStarted && m.includes('"type":"game_started"');
      if (hit) dropped += 1;
      return hit;
    });
    const bob = await register(browser, base, 'bob');
    // Alice posts a challenge to Bob, taking White (so Bob, as Black, moves first).
    await submitForm(alice, '#new-challenge', { pattern: 'bob', color: 'white', time_control: '600-30', comment: 'a friendly game' }, 'post');
    await bob.waitForSelector('#challenges li.challenge button[name=accept]', { timeout: T });
    await shot(bob, 'lobby-challenge');
    await bob.click('#challenges li.challenge button[name=accept]');
    await bob.waitForSelector('.game-page sg-board', { timeout: T });
    // Alice's lobby follows her into the new game.
    await alice.waitForSelector('.game-page sg-board', { timeout: T });
    const gameUrl = bob.url();
    assert.equal(alice.url(), gameUrl, 'both players on the same game page');
    assert.equal(await alice.locator('.sg-wrap.orientation-gote').count(), 1, 'White sees the board from her side');
    // 1.P-7f P-3d 2.Bx2b+ (the prompt) K-4b 3.+Bx2a G6a-5b 4.B*1e (a drop) P-2d 5.Bx2d mate:
    // checked with the core and the tsume solver (mate 3 B*1e 2c2d 1e2d).
    const line = ['7g7f', '3c3d', '8h2b+', '5a4b', '2b2a', '6a5b', 'B*1e', '2c2d', '1e2d'];
    for (let i = 0; i < line.length; i++) {
      const mover = i % 2 === 0 ? bob : alice;
      await play(mover, line[i]);
      await waitPlies(alice, i + 1);
      await waitPlies(bob, i + 1);
      if (line[i] === '8h2b+') await shot(bob, 'game-promotion');
      if (line[i] === 'B*1e') await shot(alice, 'game-drop-check');
    }
    for (const page of [alice, bob]) {
      await page.waitForSelector('.banner:not([hidden])', { timeout: T });
      const banner = await page.textContent('.banner');
      assert.match(banner, /Black wins/, 'the result is shown');
      assert.match(banner, /checkmate/i, 'by checkmate');
      await page.waitForSelector('pre.kif', { timeout: T });
      const kif = await page.textContent('pre.kif');
      assert.match(kif, /２二角成/, 'the record has the promotion');
      assert.match(kif, /１五角打/, 'the record has the drop');
      assert.match(kif, /詰み/, 'the record ends in mate');
    }
    assert.deepEqual(await alice.locator('ol.moves li').allTextContents(), await bob.locator('ol.moves li').allTextContents());
    await shot(alice, 'game-over-white');
    await shot(bob, 'game-over-black');
    // The finished game in the analysis board, with the evaluation graph over it.
    await alice.click('.record a[href^="#/analysis"]');
    await alice.waitForSelector('.tree .move[data-ply="9"]', { timeout: T });
    await alice.click('button[name=graph]');
    await alice.waitForFunction(() => {
      const p = document.querySelector('.graph polyline');
      return p && p.getAttribute('points').trim().split(' ').length >= 10;
    }, null, { timeout: 60000 });
    await alice.locator('.graph').scrollIntoViewIfNeeded();
    await shot(alice, 'game-graph');
    console.log('web: challenge game played to checkmate, result and record on both sides');

    // --- a challenge of alice's accepted while its live event does not reach her page: her
    // lobby finds the new game by itself and takes her to it.
    dropGameStarted = true;
    await alice.goto(base);
    await alice.waitForSelector('#my-games li', { state: 'attached', timeout: T }); // the lobby's first refresh
    await submitForm(alice, '#new-challenge', { pattern: 'bob', color: 'black' }, 'post');
    await bob.goto(base);
    await bob.waitForSelector('#challenges li.challenge button[name=accept]', { timeout: T });
    await bob.click('#challenges li.challenge button[name=accept]');
    await bob.waitForSelector('.game-page sg-board', { timeout: T });
    await alice.waitForSelector('.game-page sg-board', { timeout: T });
    assert.equal(alice.url(), bob.url(), 'alice is taken to the game bob accepted');
    assert.ok(dropped > 0, 'the game_started event was kept from her page');
    dropGameStarted = false;
    console.log(`web: a missed live event (${dropped} held back): the lobby took alice to the new game`);

    // --- the engine, then a server restart under the page
    await bob.goto(base);
    await bob.waitForSelector('#play-engine select[name=bot] option', { state: 'attached', timeout: T });
    await submitForm(bob, '#play-engine', { bot: 'hisha-test', engine_color: 'black', engine_tc: 'corr-3' }, 'start-engine');
    await bob.waitForSelector('.game-page sg-board', { timeout: T });
    const engineGame = bob.url();
    await bob.check('input[name=speech]');
    await play(bob, '7g7f');
    await waitPlies(bob, 2);
    await play(bob, '2g2f');
    await waitPlies(bob, 4);
    await shot(bob, 'engine-game');
    const spoken = await bob.evaluate(() => window.__spoken);
    assert.ok(spoken.includes('pawn to 7 f'), `moves are spoken: ${JSON.stringify(spoken)}`);
    const before = await bob.locator('ol.moves li').allTextContents();
    console.log(`web: against the engine: ${before.join(' ')}`);

    await stopServer('SIGKILL');
    await bob.waitForSelector('.conn.down', { timeout: T });
    await shot(bob, 'server-down');
    await startServer(port);
    await bob.waitForSelector('.conn:not(.down)', { timeout: 30000 });
    await bob.waitForFunction((n) => document.querySelectorAll('ol.moves li').length === n, before.length, { timeout: T });
    assert.equal(bob.url(), engineGame);
    assert.deepEqual(await bob.locator('ol.moves li').allTextContents(), before, 'the game survived the restart');
    await play(bob, '6i7h');
    await waitPlies(bob, before.length + 2);
    // Keyboard play: a move typed in Western notation. One of the page's reloads after it is
    // answered late, after the engine's reply is shown, with the game as it was before the move
    // (answers overtaking each other on a busy network): it must not take the moves off the page.
    const gameUrl2 = new URL(`api/games/${engineGame.split('/').pop()}`, base).href;
    const bobToken = await scriptToken(base, 'bob');
    const older = await (await fetch(gameUrl2, { headers: { Authorization: `Bearer ${bobToken}` } })).text();
    assert.equal(JSON.parse(older).moves.length, before.length + 2);
    let held = false;
    let release;
    const released = new Promise((r) => (release = r));
    await bob.route(gameUrl2, async (route) => {
      if (held || route.request().method() !== 'GET') return route.continue();
      held = true;
      await waitPlies(bob, before.length + 4).catch(() => {});
      await route.fulfill({ status: 200, contentType: 'application/json', body: older });
      release();
    });
    await bob.fill('input[name=move]', 'P-2e');
    await bob.press('input[name=move]', 'Enter');
    await waitPlies(bob, before.length + 4);
    await released;
    await new Promise((r) => setTimeout(r, 500)); // the page has had the late answer
    await bob.unroute(gameUrl2);
    assert.equal(await plies(bob), before.length + 4, 'a late answer with fewer moves left the page as it was');
    const typed = await bob.locator('ol.moves li').nth(before.length + 2).textContent();
    assert.match(typed, /P-2e/, 'the typed move was played');
    await shot(bob, 'engine-after-restart');
    // The same page in Japanese (UI text and move list).
    await bob.click('#me button[name=lang]');
    await bob.selectOption('select[name=notation]', 'ja');
    await bob.waitForSelector('text=投了', { timeout: T });
    assert.match(await bob.locator('ol.moves li').first().textContent(), /▲７六歩/);
    await shot(bob, 'engine-game-japanese');
    await bob.click('#me button[name=lang]');
    await bob.selectOption('select[name=notation]', 'western');
    // Resigning (the page asks first).
    bob.once('dialog', (d) => d.accept());
    await bob.click('button[name=resign]');
    await bob.waitForSelector('.banner:not([hidden])', { timeout: T });
    assert.match(await bob.textContent('.banner'), /White wins \(resignation\)/);
    assert.equal(await bob.locator('button[name=resign]').isVisible(), false, 'no resign button once the game is over');
    console.log('web: the game page survived a server restart and play went on');

    // --- a KIF file, stepped through
    await bob.goto(base + '#/analysis');
    await bob.waitForSelector('.analysis-page sg-board', { timeout: T });
    if (args.kif) {
      await bob.setInputFiles('input[name=record_file]', args.kif);
      await bob.waitForSelector('.tree .move[data-ply="3"]', { timeout: T });
      for (let i = 0; i < 3; i++) await bob.click('button[name=next]');
      await bob.waitForSelector('.tree .move.current[data-ply="3"]', { timeout: T });
      const sfen3 = await bob.inputValue('input[name=sfen]');
      assert.match(sfen3, / w /, 'after three moves White is to move');
      await bob.keyboard.press('ArrowLeft');
      await bob.waitForSelector('.tree .move.current[data-ply="2"]', { timeout: T });
      const count = await bob.locator('.tree .move[data-ply]').count();
      assert.ok(count > 50, `the record's moves are listed (${count})`);
      await shot(bob, 'kif-loaded');
      console.log(`web: KIF loaded (${count} moves) and stepped through`);
    }

    // A pasted KIF with a comment and a variation.
    await bob.fill('textarea[name=record]', [
      '手合割：平手', '先手：A', '後手：B', '手数----指手---------消費時間--', '   1 ７六歩(77)', '*角道を開ける',
      '   2 ３四歩(33)', '   3 ２六歩(27)', '   4 ８四歩(83)', '', '変化：3手', '   3 ６六歩(67)', '   4 ８四歩(83)', ''].join('\n'));
    await bob.click('button[name=load]');
    await bob.waitForSelector('button.variation', { timeout: T });
    await bob.click('.tree .move[data-ply="1"]');
    await bob.waitForSelector('.comments >> text=角道を開ける', { timeout: T });
    await bob.click('button.variation');
    await bob.waitForSelector('.tree .move.current[data-ply="3"]', { timeout: T });
    assert.match(await bob.textContent('.tree .move.current'), /P-6f/, 'the variation is followed');
    await shot(bob, 'kif-variation');

    // Saved as .kif, the file is Shift_JIS (as Japanese desktop programs read it); as .kifu, UTF-8.
    for (const [format, encoding] of [['kif', 'shift_jis'], ['kifu', 'utf-8']]) {
      await bob.selectOption('select[name=save_format]', format);
      const [download] = await Promise.all([bob.waitForEvent('download', { timeout: T }), bob.click('button[name=save]')]);
      assert.equal(download.suggestedFilename(), `hisha.${format}`);
      const bytes = fs.readFileSync(await download.path());
      const text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
      assert.match(text, /手合割：平手/, `the ${format} file reads as ${encoding}`);
      if (format === 'kif') assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes), 'a .kif is not UTF-8');
    }
    console.log('web: the record saved as .kif (Shift_JIS) and .kifu (UTF-8)');

    // --- analysis: the engine's lines while it thinks
    await bob.click('button[name=analyze]');
    await bob.waitForSelector('.engine .score', { timeout: 30000 });
    await bob.waitForFunction(() => document.querySelectorAll('ol.pv li').length >= 2, null, { timeout: 30000 });
    await bob.waitForSelector('.sg-shapes line', { state: 'attached', timeout: T });
    await bob.waitForTimeout(1500);
    await shot(bob, 'analysis');
    await bob.click('button[name=analyze]');
    console.log(`web: analysis ${await bob.textContent('.engine .eval-line')}`);

    // --- the board editor and the tsume solver: White king 5a, Black pawn 5c, a gold in hand
    await bob.goto(base + '#/analysis/editor');
    await bob.waitForSelector('.analysis-page.editing', { timeout: T });
    await bob.click('button[name=clear]');
    for (const [piece, sq] of [['gote king', '5a'], ['sente pawn', '5c'], ['sente king', '5i']]) {
      await bob.click(`button.spare[data-piece="${piece}"]`);
      const c = await squareCenter(bob, sq);
      await bob.mouse.click(c.x, c.y);
    }
    await bob.click('button[data-hand="sente gold +"]');
    await shot(bob, 'editor');
    await bob.click('.editor-panel button[name=solve]');
    await bob.waitForSelector('.tsume-result', { timeout: 30000 });
    const result = await bob.textContent('.tsume-out');
    assert.match(result, /Mate in 1/, `solved: ${result}`);
    assert.match(result, /G\*5b/, 'the mating drop');
    await bob.locator('.tsume-out').scrollIntoViewIfNeeded();
    await shot(bob, 'tsume-solved');
    console.log(`web: editor + tsume: ${result}`);

    // --- bad input to the new API: clear errors, and the server stays up. The solver serves
    // logged-in players only (the page sends its token).
    const anonymous = await fetch(base + 'api/tsume', { method: 'POST', body: '{"sfen":"4k4/9/4P4/9/9/9/9/9/9 b G 1"}' });
    assert.equal(anonymous.status, 401, 'tsume without a login');
    for (const [url, body] of [['position', '{"sfen":"kkkk5/9/9/9/9/9/9/9/9 b - 1"}'], ['position', '{"moves":[1]}'],
      ['tsume', '{"sfen":"9/9/9/9/9/9/9/9/9 b - 1"}'], ['tsume', '{"sfen":"4k4/9/4P4/9/9/9/9/9/9 b G 1","time_limit_s":"x"}'],
      ['record/parse', '{"text":""}'], ['record/write', '{"moves":["9a9b"]}'], ['tsume', 'nonsense']]) {
      const r = await fetch(base + 'api/' + url, { method: 'POST', body, headers: { Authorization: 'Bearer ' + bobToken } });
      const j = await r.json();
      assert.ok(r.status === 400 || j.status === 'error' || j.status === 'mate', `${url} ${body}: ${r.status} ${JSON.stringify(j)}`);
    }
    assert.ok((await fetch(base + 'api/who')).ok, 'the server is still up');
    for (const page of [alice, bob]) {
      assert.deepEqual(await page.evaluate(() => window.__csp), [], 'nothing the Content-Security-Policy blocked');
    }
    assert.deepEqual(cspErrors, [], 'no Content-Security-Policy errors on the console');
    const headers = (await fetch(base)).headers;
    assert.match(headers.get('content-security-policy') || '', /frame-ancestors 'none'/, 'the page is served with its CSP');

    // --- the session: an HttpOnly, SameSite=Strict cookie that no script of the page reads
    {
      const cookies = await bob.context().cookies();
      const session = cookies.find((c) => c.name === 'hisha_session');
      assert.ok(session, 'the session cookie');
      assert.equal(session.httpOnly, true, 'HttpOnly');
      assert.equal(session.sameSite, 'Strict', 'SameSite=Strict');
      assert.equal(await bob.evaluate(() => document.cookie.includes('hisha_session')), false, 'not readable by the page');
      assert.equal(await bob.evaluate(() => Object.keys(localStorage).some((k) => /token/.test(k))), false, 'no token stored');
    }

    // --- administration: alice is granted on the database while the server runs; her page
    // shows the admin link once it has asked the server; she announces, bans bob (his page is
    // logged out), lifts the ban from the list
    execFileSync(args.server, ['admin', 'grant', 'alice', '--db', `sqlite:${path.join(args.work, 'web.db')}`]);
    await alice.goto(base);
    await alice.waitForSelector('#me a.admin-link', { timeout: T });
    await alice.click('#me a.admin-link');
    await alice.waitForSelector('.admin table.admin-connections tbody tr', { timeout: T });
    assert.match(await alice.textContent('.admin table.admin-connections'), /bob/, 'bob is listed as connected');
    await submitForm(alice, 'form.admin-announce', { text: 'Maintenance at noon' }, 'announce');
    await bob.waitForFunction(() => [...document.querySelectorAll('.toast')].some((t) => /Maintenance at noon/.test(t.textContent)), null, { timeout: T });
    await shot(bob, 'announcement');
    await submitForm(alice, 'form.admin-ban', { kind: 'user', target: 'bob', duration: '1h', reason: 'testing the ban' }, 'ban');
    await bob.waitForSelector('form.login', { timeout: T });
    await alice.waitForSelector('.admin table.admin-bans tr[data-ban="user bob"]', { timeout: T });
    await alice.waitForFunction(() => /ban/.test(document.querySelector('.admin table.admin-audit')?.textContent || ''), null, { timeout: T });
    await shot(alice, 'admin');
    await bob.fill('input[name=name]', 'bob');
    await bob.fill('input[name=password]', 'bob-secret-1');
    await bob.click('button[name=login]');
    await bob.waitForFunction(() => /banned/.test(document.querySelector('form.login .error')?.textContent || ''), null, { timeout: T });
    await alice.click('.admin table.admin-bans tr[data-ban="user bob"] button[name=unban]');
    await alice.waitForFunction(() => !document.querySelector('.admin table.admin-bans tr[data-ban="user bob"]'), null, { timeout: T });
    await login(bob, 'bob');
    console.log('web: admin page: announced, banned and lifted');

    // --- log out everywhere: alice's second browser is logged out by the first
    {
      const other = await (await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' })).newPage();
      await other.goto(base);
      await login(other, 'alice');
      await other.waitForSelector('.conn:not(.down)', { timeout: T });
      await alice.click('#me button[name=logout-everywhere]');
      await alice.waitForSelector('form.login', { timeout: T });
      await other.waitForSelector('form.login', { timeout: T });
      await shot(other, 'logged-out-everywhere');
      const me = await other.evaluate(async () => (await fetch('/api/me')).status);
      assert.equal(me, 401, 'its session is revoked');
      await other.context().close();
      await login(alice, 'alice');
      console.log('web: logged out everywhere');
    }

    // --- two CSA engines play with Floodgate's evaluation comments; bob watches the game and
    // sees each side's score and line, and the score beside each move that had one
    {
      for (const name of ['carol', 'dave'])
        await fetch(base + 'api/register', { method: 'POST', body: JSON.stringify({ name, password: `${name}-secret-1` }) });
      const [carol, dave] = [await csaClient(csaPort), await csaClient(csaPort)];
      carol.send('LOGIN carol e2e-600-10-B,carol-secret-1');
      await carol.readUntil('LOGIN:carol OK');
      dave.send('LOGIN dave e2e-600-10-W,dave-secret-1');
      await dave.readUntil('LOGIN:dave OK');
      for (const c of [carol, dave]) await c.readUntil('END Game_Summary');
      for (const c of [carol, dave]) c.send('AGREE');
      for (const c of [carol, dave]) await c.readUntil('START:');
      const moves = [[carol, "+7776FU,'* 120 -3334FU +2726FU", '+7776FU,T'], [dave, "-3334FU,'* -85 +2726FU -8384FU", '-3334FU,T'], [carol, '+2726FU', '+2726FU,T']];
      for (const [c, line, echo] of moves) {
        c.send(line);
        for (const r of [carol, dave]) await r.readUntil(echo);
      }
      const games = await (await fetch(base + 'api/games')).json();
      const g = (games.games ?? games).find((x) => x.black === 'carol' && x.white === 'dave');
      assert.ok(g, 'the CSA game is listed');
      await bob.goto(`${base}#/game/${g.id}`);
      await waitPlies(bob, 3);
      await bob.waitForSelector('.engine-eval[data-side=white]', { timeout: T });
      const evalOf = (side) => bob.textContent(`.engine-eval[data-side=${side}]`);
      assert.match(await evalOf('black'), /carol \+120 -3334FU \+2726FU \(1\)/, "carol's score and line");
      assert.match(await evalOf('white'), /dave -85 \+2726FU -8384FU \(2\)/, "dave's score and line");
      assert.deepEqual(await bob.$$eval('ol.moves li', (li) => li.map((x) => x.querySelector('.move-eval')?.textContent.trim() ?? '')), ['+120', '-85', '']);
      await shot(bob, 'csa-evaluations');
      // Browsed back to the first move, only Black's evaluation so far is shown.
      await bob.click('ol.moves li[data-ply="1"]');
      await bob.waitForFunction(() => !document.querySelector('.engine-eval[data-side=white]'), null, { timeout: T });
      carol.send('%TORYO');
      await dave.readUntil('#WIN');
      for (const c of [carol, dave]) c.close();
      console.log("web: a CSA game's evaluation comments shown to a watcher");
    }

    // --- the rating page, from the navigation: the rated players (bob beat alice above) with
    // rating, deviation and games, and a tournament round's game with a link to its CSA record
    {
      for (const name of ['tango', 'uniform'])
        await fetch(base + 'api/register', { method: 'POST', body: JSON.stringify({ name, password: `${name}-secret-1` }) });
      const [p1, p2] = [await csaClient(csaPort), await csaClient(csaPort)];
      for (const [c, name] of [[p1, 'tango'], [p2, 'uniform']]) {
        c.send(`LOGIN ${name} tour-600-10,${name}-secret-1`);
        await c.readUntil(`LOGIN:${name} OK`);
      }
      // Paired by the next round (every 2 s): who plays Black is the server's choice.
      const summaries = [await p1.readUntil('END Game_Summary'), await p2.readUntil('END Game_Summary')];
      const [black, white] = summaries[0].includes('Your_Turn:+') ? [p1, p2] : [p2, p1];
      for (const c of [black, white]) c.send('AGREE');
      for (const c of [black, white]) await c.readUntil('START:');
      black.send('+7776FU');
      await white.readUntil('+7776FU,T');
      white.send('%TORYO');
      await black.readUntil('#WIN');
      for (const c of [p1, p2]) c.close();

      await bob.click('#nav a[href="#/ratings"]');
      await bob.waitForSelector('#rating-list tr[data-player=bob]', { timeout: T });
      const row = (name) => bob.$$eval(`#rating-list tr[data-player=${name}] td`, (td) => td.map((x) => x.textContent.trim()));
      const [, , bobRating, bobDeviation, bobGames] = await row('bob');
      const [, , aliceRating] = await row('alice');
      assert.ok(Number(bobRating) > Number(aliceRating), `the winner is above the loser (${bobRating} > ${aliceRating})`);
      assert.match(bobDeviation, /^± \d+$/, 'the deviation is shown');
      assert.ok(Number(bobGames) >= 1, 'the games are counted');
      await bob.waitForSelector('section.tournament[data-pattern="tour-*"] tr[data-game]', { timeout: T });
      const result = await bob.textContent('section.tournament[data-pattern="tour-*"] tr[data-game] td:nth-child(4)');
      assert.match(result, /Black wins \(resign/, `the result of the tournament game: ${result}`);
      for (const name of ['tango', 'uniform']) await bob.waitForSelector(`#rating-list tr[data-player=${name}]`, { timeout: T });
      const link = await bob.getAttribute('section.tournament[data-pattern="tour-*"] tr[data-game] a.csa-record', 'href');
      const csa = await (await fetch(new URL(link, base))).text();
      assert.match(csa, /\+7776FU/, "the tournament game's CSA record has its move");
      assert.match(csa, /%TORYO/, 'and its end');
      await shot(bob, 'ratings');
      console.log('web: the rating page lists the rated players and the tournament game with its CSA record');
    }

    // --- the rest of the admin page's actions, each through its form: a network banned and
    // lifted, a game aborted and another adjudicated, a CSA player kicked, a password reset;
    // each is in the audit log the page shows
    {
      const carolToken = await scriptToken(base, 'carol');
      const newGame = async () => {
        const r = await fetch(base + 'api/games', { method: 'POST', headers: { Authorization: `Bearer ${carolToken}` }, body: JSON.stringify({ opponent: 'dave', color: 'black', time_control: 'corr-7' }) });
        assert.equal(r.status, 200, 'a correspondence game');
        return (await r.json()).id;
      };
      const [aborted, adjudicated] = [await newGame(), await newGame()];
      await alice.goto(`${base}#/admin`);
      await alice.waitForSelector('.admin table.admin-connections tbody tr', { timeout: T });
      await submitForm(alice, 'form.admin-ban', { kind: 'address', target: '203.0.113.0/24', duration: '', reason: 'a test network' }, 'ban');
      await alice.waitForSelector('.admin table.admin-bans tr[data-ban="address 203.0.113.0/24"]', { timeout: T });
      await alice.click('.admin table.admin-bans tr[data-ban="address 203.0.113.0/24"] button[name=unban]');
      await alice.waitForFunction(() => !document.querySelector('.admin table.admin-bans tr[data-ban^="address"]'), null, { timeout: T });

      const gameState = async (id) => (await (await fetch(`${base}api/games/${id}`)).json());
      await submitForm(alice, 'form.admin-game', { game: String(aborted), action: 'abort', reason: 'a test abort' }, 'end');
      await alice.waitForFunction(() => /abort/.test(document.querySelector('.admin table.admin-audit')?.textContent || ''), null, { timeout: T });
      assert.notEqual((await gameState(aborted)).status, 'active', 'aborted');
      await submitForm(alice, 'form.admin-game', { game: String(adjudicated), action: 'white', reason: 'a test adjudication' }, 'end');
      await alice.waitForFunction(() => /adjudicate/.test(document.querySelector('.admin table.admin-audit')?.textContent || ''), null, { timeout: T });
      const judged = await gameState(adjudicated);
      assert.equal(judged.winner, 'white', `adjudicated for White: ${JSON.stringify(judged).slice(0, 200)}`);

      const dave = await csaClient(csaPort);
      dave.send('LOGIN dave dave-secret-1 x1');
      await dave.readUntil('+OK x1');
      await alice.waitForFunction(() => /dave/.test(document.querySelector('.admin table.admin-connections')?.textContent || ''), null, { timeout: T });
      await submitForm(alice, 'form.admin-kick', { name: 'dave', reason: 'a test kick' }, 'kick');
      assert.match(await dave.readUntil('a test kick'), /##\[ERROR\]/, 'the CSA client is told why');
      dave.close();

      await submitForm(alice, 'form.admin-reset', { name: 'carol', password: 'carol-secret-2' }, 'reset');
      await alice.waitForFunction(() => /resetpassword/.test(document.querySelector('.admin table.admin-audit')?.textContent || ''), null, { timeout: T });
      const loginAs = async (password) => (await fetch(base + 'api/login', { method: 'POST', body: JSON.stringify({ name: 'carol', password }) })).status;
      assert.equal(await loginAs('carol-secret-1'), 401, 'the old password no longer works');
      assert.equal(await loginAs('carol-secret-2'), 200, 'the new one does');
      const audit = await alice.textContent('.admin table.admin-audit');
      for (const action of ['ban', 'unban', 'abort', 'adjudicate', 'kick', 'resetpassword']) assert.match(audit, new RegExp(action), `${action} in the audit log`);
      await shot(alice, 'admin-actions');
      console.log('web: admin page: address ban, abort, adjudicate, kick and password reset');
    }

    // --- two engines play each other; the page watches (last: the bots keep the CPU busy)
    await alice.goto(base);
    await alice.waitForSelector('#two-engines select[name=two_black] option', { state: 'attached', timeout: T });
    await submitForm(alice, '#two-engines', { two_black: 'hisha-test', two_white: 'hisha-rival' }, 'start-two');
    await alice.waitForSelector('.game-page sg-board', { timeout: T });
    await waitPlies(alice, 4);
    await shot(alice, 'two-engines');
    console.log('web: two engines playing, watched');
  } catch (e) {
    failed = true;
    console.error(e);
    console.error('--- server log\n' + server.log.slice(-3000));
  } finally {
    await browser.close();
    // A graceful shutdown ends with status 0 (a crash or a sanitizer's report would not).
    const code = await stopServer('SIGTERM').catch(() => -1);
    if (code !== 0 && !failed) {
      failed = true;
      console.error(`hisha-server did not shut down cleanly (exit ${code})\n--- server log\n${server.log.slice(-3000)}`);
    }
  }
  process.exit(failed ? 1 : 0);
}

main();
