// Browser test of the tsume puzzle page (issue 20), Chromium against a real hisha-server serving
// tests/data/puzzles/uchifuzume.tsv (what `hisha puzzles` makes of the game
// tests/data/vectors/records/csa/uchifuzume.csa; ctest puzzles_cli checks that): a player asks for a
// hint (the piece), solves the 5-ply puzzle while the page plays the defender's replies, and the
// rating goes up; on the next puzzle a wrong check shows the defender's refutation on the board
// with the explanation, and the rating goes down. Screenshots of each state go to --out.
import { strict as assert } from 'node:assert';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { T, parseArgs, HishaServer, registerOn, play, screenshots, runBrowserTest } from './helpers.mjs';

const args = parseArgs(process.argv);
const puzzles = fileURLToPath(new URL('../../data/puzzles/uchifuzume.tsv', import.meta.url));
const server = new HishaServer({
  bin: args.server, db: path.join(args.work, 'puzzles.db'), staticDir: args.static, bots: '', extra: ['--puzzles', puzzles],
});
const FIVE = { id: '9f59ad64', line: ['N*7b', '6d6e', '8a7c', '6c7c', 'G*6d'] };
const THREE = { id: '7ffd8e35', first: 'P*6c' };

// (before each: the board's move animation, for the picture only)
const shot = screenshots(args.out, { before: (page) => page.waitForTimeout(300) });

const ratingOf = async (page) => Number((await page.textContent('.puzzle-rating')).match(/(\d+)/)[1]);
const statusHas = (page, text) =>
  page.waitForFunction((t) => document.querySelector('.puzzle-status')?.textContent.includes(t), text, { timeout: T });

/// The puzzle's SFEN and a checking first move other than its solution's (asked of the server's
/// stateless POST /api/position, as the board asks it).
async function wrongCheck(base, sfen, solution) {
  const pos = await (await fetch(base + 'api/position', { method: 'POST', body: JSON.stringify({ sfen, moves: [] }) })).json();
  for (const m of pos.legal) {
    if (m === solution) continue;
    const after = await (await fetch(base + 'api/position', { method: 'POST', body: JSON.stringify({ sfen, moves: [m] }) })).json();
    if (after.check) return m;
  }
  throw new Error('no other check');
}

async function solve(page) {
  await page.goto(page.url().replace(/#.*$/, '') + '#/puzzles');
  await page.waitForSelector(`.puzzles[data-puzzle="${FIVE.id}"] sg-board`, { timeout: T });
  await statusHas(page, 'Find the mate');
  assert.match(await page.textContent('.puzzle-meta'), /Mate in 5/);
  assert.equal(await ratingOf(page), 1500);
  await shot(page, 'puzzle');
  // A hint: the first move is a drop.
  await page.click('button[name=hint]');
  await statusHas(page, 'drop a piece from your hand (N)');
  await shot(page, 'hint');
  // The solution, the page playing the defender's replies.
  for (let i = 0; i < FIVE.line.length; i += 2) {
    await play(page, FIVE.line[i]);
    if (i + 1 < FIVE.line.length) {
      // The page played the defender's reply of the solution.
      await page.waitForSelector(`.puzzles[data-ply="${i + 2}"][data-last="${FIVE.line[i + 1]}"]`, { timeout: T });
      await statusHas(page, 'Good move');
    }
  }
  await statusHas(page, 'Solved');
  const after = await ratingOf(page);
  assert.ok(after > 1500, `the rating went up: ${after}`);
  assert.match(await page.textContent('.puzzle-rating .change.up'), /\(\+\d+\)/);
  assert.match(await page.textContent('.puzzle-solution'), /N\*7b 6d6e 8a7c 6c7c G\*6d/);
  await shot(page, 'solved');
  return after;
}

async function wrongMove(page, base, before) {
  await page.click('button[name=next-puzzle]');
  await page.waitForSelector(`.puzzles[data-puzzle="${THREE.id}"]`, { timeout: T });
  await statusHas(page, 'Find the mate');
  const sfen = 'ln1g1k1nl/2+P6/5g1p1/2pKppp2/1+rS4PP/p1PBSPP1L/2G+rs4/9/LN7 w BSN5Pgp 100';
  const wrong = await wrongCheck(base, sfen, THREE.first);
  console.log(`wrong check: ${wrong}`);
  await play(page, wrong);
  await statusHas(page, 'Wrong');
  const text = await page.textContent('.puzzle-status');
  const refutation = text.match(/the defence (\S+) escapes/)?.[1];
  assert.ok(refutation, `the refutation is named: ${text}`);
  // The refutation is on the board, as the last move, highlighted; it is a legal reply.
  await page.waitForSelector(`.puzzles[data-ply="2"][data-last="${refutation}"]`, { timeout: T });
  assert.ok((await page.locator('sg-board .last-dest').count()) > 0, 'the refutation is highlighted');
  const r = await fetch(base + 'api/position', { method: 'POST', body: JSON.stringify({ sfen, moves: [wrong, refutation] }) });
  assert.equal(r.status, 200, `the refutation ${refutation} is a legal reply to ${wrong}: ${await r.text()}`);
  const after = await ratingOf(page);
  assert.ok(after < before, `the rating went down: ${before} -> ${after}`);
  assert.match(await page.textContent('.puzzle-rating .change.down'), /\(-\d+\)/);
  await shot(page, 'wrong-refutation');
}

async function main() {
  await runBrowserTest(server, args, shot, async (browser, base) => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
    await registerOn(page, base, 'alice');
    assert.equal(await page.locator('#nav a[href="#/puzzles"]').count(), 1, 'the navigation links the puzzles');
    const rating = await solve(page);
    await wrongMove(page, base, rating);
    // The Japanese page.
    await page.click('button[name=lang]');
    await page.waitForFunction(() => document.querySelector('.puzzles h1')?.textContent === '詰将棋', null, { timeout: T });
    await shot(page, 'ja');
    console.log('puzzles: all checks passed');
  });
}

await main();
