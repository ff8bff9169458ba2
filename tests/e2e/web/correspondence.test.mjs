// Browser test of correspondence and real-time play (issue 20), Chromium against a real
// hisha-server: a conditional move saved on the game page is played by the server when the
// opponent moves (through the API); "your turn" raises a browser notification (permission
// granted, the Notification constructor recorded by an init script) and the title badge; a
// premove made on the opponent's turn is played at once when the turn comes, and one cancelled
// with Escape is not; a move made while the browser is offline is queued and arrives once when
// the network is back. Screenshots of each state go to --out.
import { strict as assert } from 'node:assert';
import path from 'node:path';
import { T, parseArgs, HishaServer, registerOn, play, waitPlies, screenshots, runBrowserTest, client } from './helpers.mjs';

const args = parseArgs(process.argv);
const server = new HishaServer({ bin: args.server, db: path.join(args.work, 'corr.db'), staticDir: args.static, bots: 'hisha-test=0' });

const shot = screenshots(args.out);

async function person(browser, base, name) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  await ctx.grantPermissions(['notifications'], { origin: base.replace(/\/$/, '') });
  await ctx.addInitScript(() => {
    window.__notes = [];
    const Real = window.Notification;
    class Recorded extends Real {
      constructor(title, opts) {
        super(title, opts);
        window.__notes.push({ title, body: opts?.body || '' });
      }
    }
    Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
    Recorded.requestPermission = (...a) => Real.requestPermission(...a);
    window.Notification = Recorded;
  });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log(`[${name}] page error: ${e.message}`));
  page.on('console', (m) => console.log(`[${name}] ${m.text()}`));
  await registerOn(page, base, name);
  return { ctx, page };
}

const movesOf = async (api, id) => (await api('GET', `games/${id}`)).moves.map((m) => m.usi);

async function until(f, what) {
  for (let i = 0; i < 400; i++) {
    if (await f()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out: ${what}`);
}

async function conditionalMove(alice, aliceApi, bobApi) {
  // A correspondence game; alice (Black) opens, then leaves "if 3c3d, 2g2f" on the page.
  const g = await aliceApi('POST', 'games', { opponent: 'bob', color: 'black', time_control: 'corr-3' });
  await aliceApi('POST', `games/${g.id}/move`, { move: '7g7f' });
  await alice.goto(`${alice.url().split('#')[0]}#/game/${g.id}`);
  await alice.waitForSelector('.card.conditional:not([hidden]) input[name=conditional]', { timeout: T });
  await alice.fill('input[name=conditional]', '3c3d 2g2f (8c8d 2f2e)');
  await alice.click('button[name=save-conditional]');
  await alice.waitForSelector('.conditional-tree code', { timeout: T });
  assert.equal(await alice.textContent('.conditional-tree code'), '3c3d 2g2f (8c8d 2f2e)');
  await shot(alice, 'conditional-saved');
  assert.deepEqual((await aliceApi('GET', `games/${g.id}/conditional`)).tree[0].reply, '2g2f');
  // Bob plays the expected move: the server answers for alice at once, and her page shows it.
  await bobApi('POST', `games/${g.id}/move`, { move: '3c3d' });
  assert.deepEqual(await movesOf(aliceApi, g.id), ['7g7f', '3c3d', '2g2f']);
  await waitPlies(alice, 3);
  await alice.waitForFunction(() => document.querySelector('.conditional-tree code')?.textContent === '8c8d 2f2e', null, { timeout: T });
  await shot(alice, 'conditional-played');
  return g.id;
}

async function yourTurn(alice, bobApi, id) {
  // Alice in the lobby; bob answers outside the tree: her move, a notification, the badge.
  await alice.goto(alice.url().split('#')[0] + '#/');
  await alice.waitForSelector('#your-turn', { timeout: T });
  const before = await alice.evaluate(() => window.__notes.length);
  await bobApi('POST', `games/${id}/move`, { move: '4c4d' });
  await alice.waitForFunction((n) => window.__notes.length > n, before, { timeout: T });
  const note = await alice.evaluate(() => window.__notes[window.__notes.length - 1]);
  assert.equal(note.title, `Your move in game #${id}`);
  assert.match(note.body, /^bob: /);
  await alice.waitForFunction(() => /^\(1\) /.test(document.title), null, { timeout: T });
  await alice.waitForSelector(`#your-turn li[data-game="${id}"]`, { timeout: T });
  await shot(alice, 'your-turn-notified');
}

async function premoves(alice, aliceApi, bobApi) {
  const g = await aliceApi('POST', 'games', { opponent: 'bob', color: 'black', time_control: '600-10' });
  await alice.goto(alice.url().split('#')[0] + `#/game/${g.id}`);
  await alice.waitForSelector('.game-page sg-board', { timeout: T });
  await aliceApi('POST', `games/${g.id}/move`, { move: '7g7f' });
  await waitPlies(alice, 1);
  // Bob to move: alice's 2g2f is queued, shown, and played the moment bob's move arrives.
  await play(alice, '2g2f');
  await alice.waitForSelector('p.premove:not([hidden])', { timeout: T });
  assert.match(await alice.textContent('p.premove'), /2g2f/);
  assert.equal(await alice.locator('sg-squares sq.current-pre').count(), 2); // its squares marked on the board
  await shot(alice, 'premove-queued');
  assert.equal((await movesOf(aliceApi, g.id)).length, 1);
  await bobApi('POST', `games/${g.id}/move`, { move: '3c3d' });
  await until(async () => (await movesOf(aliceApi, g.id)).length === 3, 'the premove played');
  assert.deepEqual(await movesOf(aliceApi, g.id), ['7g7f', '3c3d', '2g2f']);
  await waitPlies(alice, 3);
  await shot(alice, 'premove-played');
  // Another premove, cancelled with Escape: nothing is played for her after bob's move.
  await play(alice, '2f2e');
  await alice.waitForSelector('p.premove:not([hidden])', { timeout: T });
  await alice.keyboard.press('Escape');
  await alice.waitForSelector('p.premove', { state: 'hidden', timeout: T });
  await bobApi('POST', `games/${g.id}/move`, { move: '8c8d' });
  await waitPlies(alice, 4);
  assert.deepEqual(await movesOf(aliceApi, g.id), ['7g7f', '3c3d', '2g2f', '8c8d']);
  await shot(alice, 'premove-cancelled');
  return g.id;
}

async function offlineMove(aliceCtx, alice, aliceApi, id) {
  // Alice to move; the network goes; her move waits on the page and is not on the server.
  await aliceCtx.setOffline(true);
  await alice.waitForFunction(() => !navigator.onLine, null, { timeout: T });
  // (Typed: the page may slide an offline banner in, moving the board under a drag.)
  await alice.fill('input[name=move]', '2f2e');
  await alice.press('input[name=move]', 'Enter');
  await alice.waitForSelector('p.queued-move:not([hidden])', { timeout: T });
  await shot(alice, 'offline-move-queued');
  assert.equal((await movesOf(aliceApi, id)).length, 4);
  // Back: it arrives, once.
  await aliceCtx.setOffline(false);
  await until(async () => (await movesOf(aliceApi, id)).length === 5, 'the queued move sent');
  await alice.waitForSelector('p.queued-move', { state: 'hidden', timeout: T });
  await waitPlies(alice, 5);
  assert.deepEqual(await movesOf(aliceApi, id), ['7g7f', '3c3d', '2g2f', '8c8d', '2f2e']);
  await shot(alice, 'offline-move-arrived');
}

async function main() {
  await runBrowserTest(server, args, shot, async (browser, base) => {
    const { ctx: aliceCtx, page: alice } = await person(browser, base, 'alice');
    await (await person(browser, base, 'bob')).ctx.close();
    const aliceApi = client(base, 'alice'), bobApi = client(base, 'bob');
    const corr = await conditionalMove(alice, aliceApi, bobApi);
    await yourTurn(alice, bobApi, corr);
    const rt = await premoves(alice, aliceApi, bobApi);
    await offlineMove(aliceCtx, alice, aliceApi, rt);
    // The move sent twice with its ply: 409 the second time, the game unchanged.
    const moves = await movesOf(aliceApi, rt);
    await bobApi('POST', `games/${rt}/move`, { move: '8d8e', ply: moves.length });
    await assert.rejects(bobApi('POST', `games/${rt}/move`, { move: '8d8e', ply: moves.length }), /409/);
    assert.equal((await movesOf(aliceApi, rt)).length, moves.length + 1);
    console.log('correspondence: all checks passed');
  });
}

await main();
