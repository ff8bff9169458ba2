// Browser test of vacations and adjournments (issue 20), Chromium against a real hisha-server:
// alice, to move in a correspondence game, starts a vacation on the game page; bob sees "alice is
// on vacation until ..." on the game page and the tag in the lobby's game list, and alice's clock
// stands still; his correspondence challenge to her tells him so; she ends it. In a real-time game bob offers to adjourn and alice declines, then
// he offers again and she accepts: both pages say adjourned, the clocks stand still and the board
// takes no move; alice offers to resume, bob accepts, the clocks run on as they stood and bob
// plays a move on the board. Screenshots of each state go to --out.
import { strict as assert } from 'node:assert';
import path from 'node:path';
import { T, parseArgs, HishaServer, registerOn, play, waitPlies, screenshots, runBrowserTest, client } from './helpers.mjs';

const args = parseArgs(process.argv);
const server = new HishaServer({ bin: args.server, db: path.join(args.work, 'vacation.db'), staticDir: args.static });
const shot = screenshots(args.out, { fullPage: true });

async function person(browser, base, name) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log(`[${name}] page error: ${e.message}`));
  await registerOn(page, base, name);
  return page;
}

const gameUrl = (page, id) => `${page.url().split('#')[0]}#/game/${id}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function vacation(alice, bob, aliceApi, bobApi) {
  const g = await aliceApi('POST', 'games', { opponent: 'bob', color: 'black', time_control: 'corr-3' });
  await aliceApi('POST', `games/${g.id}/move`, { move: '7g7f' });
  await bobApi('POST', `games/${g.id}/move`, { move: '3c3d' });
  await alice.goto(gameUrl(alice, g.id));
  await alice.waitForSelector('.pause-card:not([hidden]) button[name=vacation-start]', { timeout: T });
  await alice.click('button[name=vacation-start]');
  await alice.waitForSelector('.vacation-card[data-on=true]', { timeout: T });
  assert.match(await alice.textContent('.vacation-state'), /On vacation until .* UTC\. 1 of 30 days used this year, 29 left\./);
  await shot(alice, 'alice-on-vacation');

  await bob.goto(gameUrl(bob, g.id));
  await bob.waitForSelector('.vacation-note', { timeout: T });
  assert.match(await bob.textContent('.vacation-note'), /^alice is on vacation until \d{4}-\d\d-\d\d \d\d:\d\d UTC: the clock stands still on alice's turn\.$/);
  const clock = async () => bob.textContent('.player-bar .clock[data-side=black]');
  const before = await clock();
  await sleep(1500);
  assert.equal(await clock(), before, 'alice\'s clock stands still');
  assert.equal((await bobApi('GET', `games/${g.id}`)).clock.stopped, true);
  await shot(bob, 'bob-sees-the-vacation');
  await bob.goto(bob.url().split('#')[0] + '#/');
  await bob.waitForSelector(`#my-games li[data-game="${g.id}"] .badge.vacation`, { timeout: T });
  assert.match(await bob.textContent(`#my-games li[data-game="${g.id}"] .badge.vacation`), /^on vacation until \d{4}-\d\d-\d\d$/);
  await shot(bob, 'lobby-vacation-tag');
  // A correspondence challenge to her says so.
  await bob.fill('#new-challenge input[name=pattern]', 'alice');
  await bob.selectOption('#new-challenge select[name=time_control]', 'corr-3');
  await bob.click('#new-challenge button[name=post]');
  await bob.waitForSelector('.toast:has-text("alice is on vacation until")', { timeout: T });
  assert.match(await bob.textContent('.toast:has-text("alice is on vacation until")'), /^alice is on vacation until \d{4}-\d\d-\d\d \d\d:\d\d UTC: the clock of alice's turns stands still until then\.$/);
  await shot(bob, 'challenge-to-a-player-on-vacation');

  await alice.click('button[name=vacation-end]');
  await alice.waitForSelector('.vacation-card[data-on=false]', { timeout: T });
  assert.equal((await aliceApi('GET', 'vacation')).on, false);
}

async function adjournment(alice, bob, aliceApi, bobApi) {
  const g = await aliceApi('POST', 'games', { opponent: 'bob', color: 'black', time_control: '600-10' });
  await aliceApi('POST', `games/${g.id}/move`, { move: '7g7f' });
  await alice.goto(gameUrl(alice, g.id));
  await bob.goto(gameUrl(bob, g.id));
  await waitPlies(bob, 1);
  // An offer declined.
  await bob.click('.pause-card button[name=adjourn]');
  await alice.waitForSelector('.pause-card button[name=decline]', { timeout: T });
  assert.equal(await alice.textContent('.pause-state'), 'bob offers to adjourn.');
  await shot(alice, 'adjourn-offered');
  await alice.click('.pause-card button[name=decline]');
  await bob.waitForFunction(() => document.querySelector('.pause-state')?.textContent === '', null, { timeout: T });
  // Offered again, accepted.
  await bob.click('.pause-card button[name=adjourn]');
  await alice.waitForSelector('.pause-card button[name=decline]', { timeout: T });
  await alice.click('.pause-card button[name=adjourn]');
  for (const p of [alice, bob]) await p.waitForFunction(() => /^Adjourned since .* UTC: the clocks stand still\.$/.test(document.querySelector('.pause-state')?.textContent || ''), null, { timeout: T });
  const frozen = await bobApi('GET', `games/${g.id}`);
  assert.equal(frozen.adjourned, true);
  const clock = async () => bob.textContent('.player-bar .clock[data-side=white]');
  const before = await clock();
  await sleep(1500);
  assert.equal(await clock(), before, 'the clocks stand still');
  const later = await bobApi('GET', `games/${g.id}`);
  assert.equal(later.clock.now - later.clock.turn_started, frozen.clock.now - frozen.clock.turn_started);
  await assert.rejects(bobApi('POST', `games/${g.id}/move`, { move: '3c3d' }), /adjourned/);
  await shot(bob, 'adjourned');
  // Resumed by both: the clock runs on from where it stood, and bob plays on the board.
  await alice.click('.pause-card button[name=resume]');
  await bob.waitForSelector('.pause-card button[name=resume]:has-text("Accept")', { timeout: T });
  await shot(bob, 'resume-offered');
  await bob.click('.pause-card button[name=resume]');
  await bob.waitForFunction(() => document.querySelector('.pause-state')?.textContent === '', null, { timeout: T });
  const resumed = await bobApi('GET', `games/${g.id}`);
  assert.equal(resumed.adjourned, false);
  const used = resumed.clock.now - resumed.clock.turn_started, usedBefore = frozen.clock.now - frozen.clock.turn_started;
  assert.ok(used >= usedBefore && used < usedBefore + 5000, `the clock runs on as it stood: ${usedBefore} -> ${used} ms`);
  await play(bob, '3c3d');
  await waitPlies(bob, 2);
  await shot(bob, 'resumed-and-played');
}

async function main() {
  await runBrowserTest(server, args, shot, async (browser, base) => {
    const alice = await person(browser, base, 'alice');
    const bob = await person(browser, base, 'bob');
    const aliceApi = client(base, 'alice'), bobApi = client(base, 'bob');
    await vacation(alice, bob, aliceApi, bobApi);
    await adjournment(alice, bob, aliceApi, bobApi);
    console.log('vacation: all checks passed');
  });
}

await main();
