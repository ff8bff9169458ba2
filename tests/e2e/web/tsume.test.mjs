// The tsume solver's explanation (issue 21): on the analysis page a mate in 3 is solved, then
// "Why?" asks POST /api/tsume with "explain": true and the page shows, under the line, the other
// defence (6a5b, mated at once by G*6b) and the yozume report (none). The answer's lines are
// replayed by the server's own /api/position to checkmate; screenshots to --out.
import { strict as assert } from 'node:assert';
import path from 'node:path';
import { T, parseArgs, HishaServer, registerOn, screenshots, runBrowserTest } from './helpers.mjs';

const args = parseArgs(process.argv);
const server = new HishaServer({ bin: args.server, db: path.join(args.work, 'tsume.db'), staticDir: args.static, bots: 'hisha-test=0' });
// White's king on 5a between silvers on 6a and 4a, a tokin on 5c; two golds in hand: G*5b 4a5b
// G*4b, and 6a5b instead is mated at once by G*6b (checked with hisha tsume --explain).
const SFEN = '3sks3/9/4+P4/9/9/9/9/9/4K4 b 2G 1';

const shot = screenshots(args.out);

// The server's own rules: the moves from SFEN end in checkmate.
async function mates(base, usi) {
  const r = await fetch(base + 'api/position', { method: 'POST', body: JSON.stringify({ sfen: SFEN, moves: usi }) });
  const p = await r.json();
  assert.equal(r.status, 200, `legal: ${usi.join(' ')} ${JSON.stringify(p)}`);
  return p;
}

async function explain(page, base) {
  await page.goto(base + '#/analysis');
  await page.waitForSelector('.analysis-page sg-board', { timeout: T });
  await page.fill('input[name=sfen]', SFEN);
  await page.press('input[name=sfen]', 'Enter');
  await page.waitForFunction(() => document.querySelector('input[name=sfen]').value.startsWith('3sks3/'), null, { timeout: T });
  await page.click('button[name=solve-current]');
  await page.waitForSelector('.tsume-result', { timeout: 30000 });
  assert.match(await page.textContent('.tsume-out'), /Mate in 3/);
  await shot(page, 'solved');
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/tsume') && r.request().method() === 'POST', { timeout: 60000 }),
    page.click('button[name=explain-tsume]'),
  ]);
  assert.equal(JSON.parse(response.request().postData()).explain, true, 'the page asks for the explanation');
  const answer = await response.json();
  assert.equal(answer.status, 'mate', JSON.stringify(answer));
  const e = answer.explain;
  assert.ok(e, `an explanation: ${JSON.stringify(answer)}`);
  assert.deepEqual(e.yozume, [], 'no other mate');
  assert.equal(e.timeouts, 0);
  const d = e.defences.find((x) => x.ply === 2);
  assert.ok(d, `the defence at ply 2: ${JSON.stringify(e.defences)}`);
  assert.equal(d.played.usi, '4a5b');
  const other = d.others.find((o) => o.move.usi === '6a5b');
  assert.ok(other && other.verdict === 'mate' && other.length === 1, JSON.stringify(d.others));
  assert.equal(other.line[0].usi, 'G*6b');
  // The refutation, replayed by the server: the main line's first move, the other defence, its mate.
  const main = answer.moves.map((m) => m.usi);
  const replayed = await mates(base, [main[0], other.move.usi, ...other.line.map((m) => m.usi)]);
  assert.ok(replayed.check && replayed.legal.length === 0, `checkmate after the refutation: ${JSON.stringify(replayed)}`);

  // A bad "explain" is refused with a clear error (the page's session cookie and its CSRF header).
  const bad = await page.evaluate(async () => {
    const r = await fetch('/api/tsume', { method: 'POST', headers: { 'X-Hisha-Request': '1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ sfen: '3sks3/9/4+P4/9/9/9/9/9/4K4 b 2G 1', explain: 'yes' }) });
    return { status: r.status, body: await r.json() };
  });
  assert.equal(bad.status, 400, JSON.stringify(bad));
  assert.match(bad.body.error, /explain is true or false/);

  await page.waitForSelector('.tsume-explain', { timeout: T });
  const text = await page.textContent('.tsume-explain');
  assert.match(text, /Other defences/, text);
  assert.match(text, /Move 2: .*\(1 plies left\)/, text);
  assert.ok(await page.locator('.tsume-defence[data-ply="2"] li[data-verdict=mate][data-length="1"]').count(), text);
  assert.match(text, /G\*6b|6b/, `the mating move after 6a5b: ${text}`);
  assert.match(text, /No yozume/, text);
  await page.locator('.tsume-explain').scrollIntoViewIfNeeded();
  await shot(page, 'explained');
  console.log(`tsume: ${text}`);
}

async function main() {
  await runBrowserTest(server, args, shot, async (browser, base) => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 1000 }, locale: 'en-US' });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
    await registerOn(page, base, 'solver');
    await explain(page, base);
    console.log('1 passed, 0 failed');
  });
}

await main();
