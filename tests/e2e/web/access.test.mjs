// Browser test of access for all (issue 20): a visitor plays the engine as a guest without
// registering (the bot answers) and then keeps the game by creating an account from the guest
// bar; a whole game is played by keyboard alone by two players in two browser contexts (one page
// in English, one in Japanese), and after every move the ARIA live region of both pages says it
// (Western notation / KI2 as the server spells them, check, checkmate, the end); the high-contrast
// theme and the board size are set from the Display panel; the app loads with the network cut
// after the first visit (service worker), and its analysis board shows the start position, a
// pasted SFEN and a KIF file computed in the page (the browser's engine, or the page alone where
// there is none). Screenshots to --out.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { T, parseArgs, HishaServer, registerOn, play, waitPlies, screenshots, runBrowserTest } from './helpers.mjs';

const args = parseArgs(process.argv);
const server = new HishaServer({ bin: args.server, db: path.join(args.work, 'access.db'), staticDir: args.static, bots: 'hisha-test=0' });

// (before each: the board's move animation, for the picture only)
const settled = (page) => page.waitForTimeout(300);
const shot = screenshots(args.out, { before: settled });

async function newPage(browser, locale, who) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log(`[${who}] page error: ${e.message}`));
  page.on('dialog', (d) => d.accept());
  return page;
}

// --- the keyboard

/// The cursor's place as drawn: [col, row] (row 9: the hand below the board, -1: above).
async function cursorCell(page) {
  const c = await page.locator('.board-box').getAttribute('data-cursor');
  return c;
}
function cellOf(key, gote) {
  const file = Number(key[0]);
  const rank = key.charCodeAt(1) - 97;
  return gote ? [file - 1, 8 - rank] : [9 - file, rank];
}

/// Focuses the board with Tab (as a keyboard user does) unless it has the focus.
async function focusBoard(page) {
  for (let i = 0; i < 60; i++) {
    if (await page.evaluate(() => document.activeElement?.classList.contains('board-box'))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the board');
}

/// Moves the cursor with the arrow keys to a square ("7g") or a piece of the hand below the board
/// ("hand:sente:bishop").
async function cursorTo(page, target) {
  await focusBoard(page);
  const gote = (await page.locator('.sg-wrap.orientation-gote').count()) > 0;
  for (let guard = 0; guard < 60; guard++) {
    const at = await cursorCell(page);
    if (at === target) return;
    if (target.startsWith('hand:')) {
      if (!at?.startsWith('hand:')) await page.keyboard.press('ArrowDown');
      else await page.keyboard.press(guard < 30 ? 'ArrowRight' : 'ArrowLeft');
      continue;
    }
    if (!at || at.startsWith('hand:')) {
      await page.keyboard.press(at?.startsWith('hand:') ? 'ArrowUp' : 'ArrowLeft');
      continue;
    }
    const [c0, r0] = cellOf(at, gote);
    const [c1, r1] = cellOf(target, gote);
    if (c0 !== c1) await page.keyboard.press(c1 < c0 ? 'ArrowLeft' : 'ArrowRight');
    else await page.keyboard.press(r1 < r0 ? 'ArrowUp' : 'ArrowDown');
  }
  throw new Error(`the cursor did not reach ${target} (at ${await cursorCell(page)})`);
}

const ROLE = { P: 'pawn', L: 'lance', N: 'knight', S: 'silver', G: 'gold', B: 'bishop', R: 'rook' };

/// Plays a USI move with the keys alone: the cursor to the piece (or the hand), Enter, the cursor
/// to the target, Enter; a promotion's question answered Y.
async function keyMove(page, usi, color) {
  if (usi[1] === '*') await cursorTo(page, `hand:${color}:${ROLE[usi[0]]}`);
  else await cursorTo(page, usi.slice(0, 2));
  await page.keyboard.press('Enter');
  await cursorTo(page, usi.slice(2, 4));
  await page.keyboard.press('Enter');
  if (usi.endsWith('+')) {
    await page.waitForSelector('.kb-prompt:not([hidden])', { timeout: T });
    await page.keyboard.press('y');
  }
}

const liveText = (page) => page.locator('#move-announcer').textContent();
async function waitLive(page, want, what) {
  try {
    await page.waitForFunction((w) => (document.getElementById('move-announcer')?.textContent || '').includes(w), want, { timeout: T });
  } catch {
    throw new Error(`${what}: the live region says ${JSON.stringify(await liveText(page))}, not ${JSON.stringify(want)}`);
  }
}

// --- the parts

async function guestPlaysTheEngine(browser, base) {
  const page = await newPage(browser, 'en-US', 'guest');
  await page.goto(base);
  await page.click('button[name=guest]');
  await page.waitForSelector('#play-engine', { timeout: T });
  const name = await page.locator('#me a.user').textContent();
  assert.match(name, /^guest-[a-z0-9]{6}$/, 'a guest account');
  assert.ok(await page.locator('.guest-bar').isVisible(), 'the guest bar offers an account');
  assert.ok(!(await page.locator('#new-challenge').isVisible()), 'no challenges for guests');
  await shot(page, 'guest-lobby');
  await page.click('button[name=start-engine]');
  await page.waitForSelector('.game-page sg-board', { timeout: T });
  const gameId = page.url().split('/').pop();
  await play(page, '7g7f');
  await waitPlies(page, 2); // the bot answered
  await play(page, '2g2f');
  await waitPlies(page, 4);
  await shot(page, 'guest-game');
  // Create an account to keep the game.
  await page.click('button[name=keep-games]');
  await page.fill('input[name=new-name]', 'keeper');
  await page.fill('input[name=new-password]', 'keeper-secret-1');
  await page.click('button[name=create-account]');
  await page.waitForFunction(() => document.querySelector('#me a.user')?.textContent === 'keeper', null, { timeout: T });
  assert.equal(await page.locator('.guest-bar').count(), 0, 'no guest bar once registered');
  const g = await (await page.request.get(`${base}api/games/${gameId}`)).json();
  assert.equal(g.black, 'keeper', 'the guest\'s game is the account\'s');
  assert.ok(g.moves.length >= 4);
  console.log(`guest ${name} played game ${gameId} (${g.moves.length} plies) and registered as keeper`);
  await page.context().close();
}

async function keyboardGame(browser, base) {
  const bob = await newPage(browser, 'en-US', 'bob'); // White, English
  const alice = await newPage(browser, 'ja-JP', 'alice'); // Black, Japanese
  await registerOn(bob, base, 'bob');
  await registerOn(alice, base, 'alice');
  const bobGame = await (await bob.request.post(`${base}api/challenges`, {
    data: { pattern: 'alice', color: 'white', time_control: '600-30' },
    headers: { 'X-Hisha-Request': '1', Origin: base.replace(/\/$/, '') },
  })).json();
  assert.ok(bobGame.id, JSON.stringify(bobGame));
  await alice.reload();
  await alice.waitForSelector('#challenges li.challenge button[name=accept]', { timeout: T });
  await alice.focus('#challenges li.challenge button[name=accept]');
  await alice.keyboard.press('Enter');
  await alice.waitForSelector('.game-page sg-board', { timeout: T });
  await bob.waitForSelector('.game-page sg-board', { timeout: T });
  // The line of web.test.mjs (a promotion, a drop, check, mate), each spelled by the server.
  const line = ['7g7f', '3c3d', '8h2b+', '5a4b', '2b2a', '6a5b', 'B*1e', '2c2d', '1e2d'];
  const position = async (sfen, moves) => (await fetch(`${base}api/position`, { method: 'POST', body: JSON.stringify({ sfen, moves }) })).json();
  assert.equal((await position('startpos', line)).over, 'checkmate');
  // Each move as the server spells it from the position before it (a lone move: no 同).
  const spelled = [];
  for (let i = 0; i < line.length; i++) spelled.push((await position((await position('startpos', line.slice(0, i))).sfen, [line[i]])).moves[0]);
  for (let i = 0; i < line.length; i++) {
    const black = i % 2 === 0;
    await keyMove(black ? alice : bob, line[i], black ? 'sente' : 'gote');
    const m = spelled[i];
    const side = black ? 'Black' : 'White';
    await waitLive(bob, `${side} ${m.western}`, `English, ply ${i + 1}`);
    await waitLive(alice, m.ja, `Japanese, ply ${i + 1}`);
    if (i === 0) {
      await cursorTo(bob, '5e');
      await shot(bob, 'keyboard-cursor');
    }
    if (line[i] === 'B*1e') {
      await waitLive(bob, 'check', 'English check');
      await waitLive(alice, '王手', 'Japanese check');
      await shot(alice, 'keyboard-check-ja');
    }
    console.log(`ply ${i + 1}: "${await liveText(bob)}" / "${await liveText(alice)}"`);
  }
  await waitLive(bob, 'Black wins', 'the end in English');
  await waitLive(alice, '先手の勝ち', 'the end in Japanese');
  assert.match(await bob.textContent('.banner'), /Black wins/);
  await shot(bob, 'keyboard-mate');
  return { bob, alice };
}

async function display(page) {
  await page.click('button[name=display]');
  await page.check('input[name=high-contrast]');
  await page.selectOption('select[name=board-size]', 'large');
  assert.ok(await page.evaluate(() => document.body.classList.contains('high-contrast')), 'high contrast on');
  const w = await page.locator('sg-board').evaluate((e) => e.getBoundingClientRect().width);
  assert.ok(w > 600, `a large board (${w} px)`);
  await shot(page, 'high-contrast');
  await page.reload();
  await page.waitForSelector('sg-board', { timeout: T });
  assert.ok(await page.evaluate(() => document.body.classList.contains('high-contrast')), 'kept after a reload');
}

/// The analysis board's Analyze answered by the browser's engine (a line of depth 4 or more).
async function browserAnalysis(page, base, when) {
  await page.goto(base + '#/analysis');
  await page.waitForSelector('.analysis-page sg-board', { timeout: T });
  await page.click('button[name=analyze]');
  await page.waitForSelector('.engine .eval-line .engine-kind[data-engine=browser]', { timeout: 60000 });
  await page.waitForFunction(() => Number(document.querySelector('.engine .eval-line')?.textContent?.match(/depth (\d+)/)?.[1]) >= 4, null, { timeout: 60000 });
  console.log(`${when}: ${(await page.textContent('.engine .eval-line')).trim()}`);
  if (when === 'offline') await shot(page, 'offline-browser-engine');
  await page.click('button[name=analyze]');
}

/// The pieces the analysis board draws (hands apart), once there are `n`.
async function boardPieces(page, n, what) {
  try {
    await page.waitForFunction((k) => document.querySelectorAll('.analysis-page sg-board piece:not(.ghost):is(.sente, .gote)').length === k, n, { timeout: T });
  } catch {
    const classes = await page.$$eval('.analysis-page sg-board piece:not(.ghost):is(.sente, .gote)', (ps) => ps.map((p) => p.className).join(', '));
    throw new Error(`${what}: ${classes ? classes.split(', ').length : 0} pieces on the board, not ${n}: ${classes}`);
  }
}

const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

/// An SFEN with a move pasted as a record, offline: its start (5 pieces), then after the drop (6).
async function pastedSfenOffline(page, who) {
  await page.fill('textarea[name=record]', 'sfen 3sks3/9/4+P4/9/9/9/9/9/4K4 b 2G 1 moves G*5b');
  await page.click('button[name=load]');
  await page.waitForSelector('.tree .move[data-ply="1"]', { timeout: T });
  await boardPieces(page, 5, `${who}: the pasted SFEN's start`);
  await page.click('button[name=last]');
  await boardPieces(page, 6, `${who}: after G*5b`);
  await page.waitForFunction(() => document.querySelector('input[name=sfen]').value === '3sks3/4G4/4+P4/9/9/9/9/9/4K4 w G 2', null, { timeout: T });
  assert.equal(await page.locator('.analysis-page sg-hand [data-nb]:not([data-nb="0"])').count(), 1, `${who}: the gold left in hand`);
}

/// The analysis board offline: the start position drawn at once, a pasted SFEN and the KIF file
/// read in the page (the browser's engine reads the KIF and spells its moves), and analysed.
async function offlineAnalysis(page, base, wasm) {
  await page.goto(base + '#/analysis');
  await page.waitForSelector('sg-board', { timeout: T });
  await boardPieces(page, 40, 'the start position offline');
  assert.equal(await page.inputValue('input[name=sfen]'), START);
  await shot(page, 'offline');
  await pastedSfenOffline(page, 'offline');
  if (!wasm) return console.log('offline: no wasm in this build (make wasm): the browser engine offline not checked');
  await page.setInputFiles('input[name=record_file]', args.kif); // Shift_JIS, decoded by the page
  await page.waitForFunction(() => document.querySelectorAll('.tree .move[data-ply]').length > 100, null, { timeout: T });
  assert.match(await page.textContent('.tree .move[data-ply="1"]'), /P-7f/, 'the KIF\'s first move spelled by the engine');
  assert.match(await page.textContent('dl.headers'), /羽生善治/, 'the KIF\'s headers');
  await page.click('button[name=next]');
  await page.waitForFunction(() => document.querySelector('input[name=sfen]').value === 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2', null, { timeout: T });
  await boardPieces(page, 40, 'the KIF after 7g7f');
  // (the gold in hand of the SFEN before is gone: a position without hands empties them)
  assert.equal(await page.locator('.analysis-page sg-hand [data-nb]:not([data-nb="0"])').count(), 0, 'no piece in hand after 7g7f');
  await shot(page, 'offline-kif');
  console.log(`offline: the KIF read in the page, ${await page.locator('.tree .move[data-ply]').count()} moves`);
  await page.click('button[name=first]');
  await boardPieces(page, 40, 'the KIF\'s start');
  await browserAnalysis(page, base, 'offline');
}

/// Offline where the browser's engine is not used (not shipped, or refused: hisha.engine =
/// 'server'): the page alone draws the start and a pasted SFEN; a KIF needs an engine.
async function offlineWithoutEngine(page, base) {
  await page.evaluate(() => localStorage.setItem('hisha.engine', 'server'));
  await page.goto(base + '#/');
  await page.reload();
  await page.waitForSelector('form.login', { timeout: T });
  await page.goto(base + '#/analysis');
  await boardPieces(page, 40, 'the start position offline without the engine');
  await pastedSfenOffline(page, 'offline without the engine');
  await shot(page, 'offline-no-engine');
  // (a move typed is not played: the page alone does not judge moves)
  await page.fill('input[name=move]', '5a4b');
  await page.press('input[name=move]', 'Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('.toast')].some((e) => /No legal move/.test(e.textContent)), null, { timeout: T });
  assert.equal(await page.locator('.tree .move[data-ply="2"]').count(), 0, 'no move played without an engine');
  await page.fill('textarea[name=record]', '手合割：平手\n   1 ７六歩(77)\n');
  await page.click('button[name=load]');
  await page.waitForFunction(() => [...document.querySelectorAll('.toast')].some((e) => /only SFEN and USI/.test(e.textContent)), null, { timeout: T });
  await page.evaluate(() => localStorage.removeItem('hisha.engine'));
}

/// The app from the cache: a first visit installs the service worker; with the network cut the
/// page reloads from it, says it is offline, and a call to the server fails with a message.
async function offline(browser, base) {
  const page = await newPage(browser, 'en-US', 'offline');
  await page.goto(base);
  await page.waitForSelector('form.login', { timeout: T });
  const manifest = await page.locator('link[rel=manifest]').getAttribute('href');
  const m = await (await page.request.get(base + manifest.replace(/^\//, ''))).json();
  assert.equal(m.start_url, '/');
  assert.ok(m.icons.some((i) => i.sizes === '512x512'), 'a 512 px icon');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: T });
  // The browser's engine (when the build has it: make wasm) is cached when first used.
  const wasm = fs.existsSync(path.join(args.static, 'wasm', 'hisha.wasm'));
  if (wasm) {
    await browserAnalysis(page, base, 'online');
    await page.goto(base + '#/');
    await page.waitForSelector('form.login', { timeout: T });
  }
  const cached = await page.evaluate(async () => (await Promise.all((await caches.keys()).map(async (k) => (await (await caches.open(k)).keys()).length))).reduce((a, b) => a + b, 0));
  assert.ok(cached >= 5, `the shell is cached (${cached} files)`);
  await page.context().setOffline(true);
  await page.reload();
  await page.waitForSelector('form.login', { timeout: T });
  assert.ok(await page.locator('.offline-banner').isVisible(), 'the offline banner');
  assert.ok(await page.locator('sg-board, #nav a').first().isVisible(), 'the shell renders');
  await page.click('button[name=guest]');
  await page.waitForFunction(() => /cannot be reached/.test(document.querySelector('form.login .error')?.textContent || ''), null, { timeout: T });
  await offlineAnalysis(page, base, wasm);
  await offlineWithoutEngine(page, base);
  await page.context().setOffline(false);
  await page.context().close();
}

// --- a phone's width

/// What sticks out of a 375 px wide page: each element whose right edge passes the viewport (the
/// page scrolls sideways) or, in the page's main part, whose left edge is cut off, outermost
/// first, as "tag.class (left..right)".
async function overflow(page) {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const out = [];
    // (inside a box that scrolls or clips, as a wide table's, nothing sticks out of the page)
    const inBox = (e) => {
      for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return true;
      return false;
    };
    for (const e of document.querySelectorAll('body *')) {
      const r = e.getBoundingClientRect();
      const cut = r.right > w + 1 || (r.left < -1 && r.width > 1 && e.closest('main')); // (the left: not even scrollable)
      if (r.width && cut && !out.some((o) => o.el.contains(e)) && getComputedStyle(e).position !== 'fixed' && !inBox(e))
        out.push({ el: e, text: `${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : ''} (${Math.round(r.left)}..${Math.round(r.right)})` });
    }
    return { scroll: document.documentElement.scrollWidth, width: w, out: out.map((o) => o.text) };
  });
}

/// Every page at a phone's width (375 px): a picture of each (whole page), and none wider than
/// the screen (nothing to scroll sideways: the board, the buttons and the forms fit).
async function phoneWidth(browser, base) {
  const ctx = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'en-US', isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log(`[phone] page error: ${e.message}`));
  const phoneShot = screenshots(path.join(args.out, 'phone'), { fullPage: true, before: settled });
  const bad = [];
  const check = async (name) => {
    await phoneShot(page, name);
    const o = await overflow(page);
    console.log(`phone ${name}: ${o.scroll} px wide${o.out.length ? ': ' + o.out.join(', ') : ''}`);
    if (o.scroll > o.width || o.out.length) bad.push(`${name}: ${o.scroll} px (${o.out.join(', ')})`);
  };
  await page.goto(base);
  await page.waitForSelector('form.login', { timeout: T });
  await check('login');
  await registerOn(page, base, 'phone');
  await check('lobby');
  await page.click('button[name=start-engine]');
  await page.waitForSelector('.game-page sg-board', { timeout: T });
  const gameId = page.url().split('/').pop();
  await check('game');
  const pages = [['#/analysis', 'analysis', '.analysis-page sg-board piece'], ['#/analysis/editor', 'editor', '.editor-panel .palette button'],
    ['#/ratings', 'ratings', 'table.ratings'], ['#/player/phone', 'player', 'table.games'], ['#/puzzles', 'puzzles', '.puzzles .puzzle-layout']];
  for (const [route, name, drawn] of pages) {
    await page.goto(base + route);
    await page.waitForSelector(drawn, { timeout: T });
    await check(name);
  }
  await page.goto(`${base}embed/${gameId}`);
  await page.waitForSelector('sg-board', { timeout: T });
  await check('embed');
  await ctx.close();
  assert.deepEqual(bad, [], 'pages wider than a 375 px phone');
}

async function main() {
  await runBrowserTest(server, args, shot, async (browser, base) => {
    await guestPlaysTheEngine(browser, base);
    const { bob } = await keyboardGame(browser, base);
    await display(bob);
    await offline(browser, base);
    await phoneWidth(browser, base);
  });
}

await main();
