// Browser test of access for all (issue 20): a visitor plays the engine as a guest without
// registering (the bot answers) and then keeps the game by creating an account from the guest
// bar; a whole game is played by keyboard alone by two players in two browser contexts (one page
// in English, one in Japanese), and after every move the ARIA live region of both pages says it
// (Western notation / KI2 as the server spells them, check, checkmate, the end); the high-contrast
// theme and the board size are set from the Display panel; the app loads with the network cut
// after the first visit (service worker). Screenshots to --out.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { T, parseArgs, HishaServer, registerOn, play, waitPlies, screenshots, runBrowserTest } from './helpers.mjs';

const args = parseArgs(process.argv);
const server = new HishaServer({ bin: args.server, db: path.join(args.work, 'access.db'), staticDir: args.static, bots: 'hisha-test=0' });

const shot = screenshots(args.out);

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
  await page.goto(base + '#/analysis');
  await page.waitForSelector('sg-board', { timeout: T });
  await shot(page, 'offline');
  if (wasm) await browserAnalysis(page, base, 'offline');
  else console.log('offline: no wasm in this build (make wasm): the browser engine offline not checked');
  await page.context().setOffline(false);
  await page.context().close();
}

async function main() {
  await runBrowserTest(server, args, shot, async (browser, base) => {
    await guestPlaysTheEngine(browser, base);
    const { bob } = await keyboardGame(browser, base);
    await display(bob);
    await offline(browser, base);
  });
}

await main();
