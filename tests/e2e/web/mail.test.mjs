// Browser test of the mail notifications (issue 20), Chromium against a real hisha-server that
// mails through a real SMTP server on 127.0.0.1 (Debian's python3-aiosmtpd, run by
// tests/unit/server/smtp_sink.py; skipped, 77, without it): alice gives her address on the
// settings page, the confirmation link of the mail that comes confirms it, and when Bob moves in
// their correspondence game while she is away a "your turn" mail arrives with the move and the
// game's link; its one-click unsubscribe page stops the mail. Screenshots of each state.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { T, parseArgs, HishaServer, freePort, registerOn, screenshots, runBrowserTest } from './helpers.mjs';

const args = parseArgs(process.argv);
if (spawnSync('/usr/bin/python3', ['-c', 'import aiosmtpd']).status !== 0) {
  console.log('python3-aiosmtpd is not installed: skipped');
  process.exit(77);
}
const PUBLIC = 'https://shogi.example.org';
const box = path.join(args.work, 'mailbox');
fs.rmSync(box, { recursive: true, force: true });
fs.mkdirSync(box, { recursive: true });
const smtpPort = await freePort();
const sinkScript = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../unit/server/smtp_sink.py');
const sink = spawn('/usr/bin/python3', [sinkScript, String(smtpPort), box], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((resolve, reject) => {
  sink.stdout.on('data', (d) => { if (String(d).includes('ready')) resolve(); });
  sink.once('exit', () => reject(new Error('the SMTP sink did not start')));
});
process.on('exit', () => sink.kill('SIGKILL'));

const server = new HishaServer({
  bin: args.server, db: path.join(args.work, 'mail.db'), staticDir: args.static, bots: '',
  extra: ['--smtp-host', '127.0.0.1', '--smtp-port', String(smtpPort), '--smtp-from', 'hisha@example.org',
    '--smtp-tls', 'off', '--public-url', PUBLIC],
});
const shot = screenshots(args.out, { fullPage: true });

/// The mails so far, in order: {to, subject (decoded), body (quoted-printable decoded), raw}.
function mails() {
  return fs.readdirSync(box).filter((f) => f.endsWith('.eml')).sort().map((f) => {
    const raw = fs.readFileSync(path.join(box, f), 'latin1');
    const [head, ...rest] = raw.split('\r\n\r\n');
    const qp = rest.join('\r\n\r\n').replace(/=\r\n/g, '');
    const body = Buffer.from(qp.replace(/=([0-9A-F]{2})/g, (_, x) => String.fromCharCode(parseInt(x, 16))), 'latin1').toString('utf8');
    const subjectRaw = (head.match(/\r\nSubject: ((?:.|\r\n )*)/) || [])[1] || '';
    const subject = subjectRaw.split(/\r\n /).map((w) => {
      const m = w.match(/^=\?UTF-8\?B\?(.*)\?=$/);
      return m ? Buffer.from(m[1], 'base64').toString('utf8') : w;
    }).join('');
    return { to: fs.readFileSync(path.join(box, f.replace('.eml', '.rcpt')), 'utf8'), subject, body, raw };
  });
}

async function until(f, what) {
  for (let i = 0; i < 400; i++) {
    const v = await f();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out: ${what}`);
}

async function api(base, token, method, target, body) {
  const r = await fetch(base + 'api/' + target, {
    method, headers: token ? { Authorization: `Bearer ${token}` } : {}, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${target}: ${r.status} ${text}`);
  return JSON.parse(text);
}

await runBrowserTest(server, args, shot, async (browser, base) => {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 800 }, locale: 'en-US' });
  const alice = await ctx.newPage();
  alice.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await registerOn(alice, base, 'alice');
  const bob = (await api(base, '', 'POST', 'register', { name: 'bob', password: 'bob-secret-1' })).token;

  // The settings page (its header link shows: this server mails) takes the address.
  await alice.click('#nav a[href="#/settings"]', { timeout: T });
  await alice.waitForSelector('input[name=mail-address]', { timeout: T });
  await until(() => alice.isChecked('input[name=mail-turn]'), 'the settings loaded');
  await shot(alice, 'settings-empty');
  await alice.fill('input[name=mail-address]', 'alice@localhost'); // (the browser's own check lets it pass)
  await alice.click('button[name=mail-save]');
  await alice.waitForSelector('.toast.error:has-text("the domain after @ is not a host name")', { timeout: T });
  await shot(alice, 'settings-bad-address');
  await alice.fill('input[name=mail-address]', 'alice@example.org');
  await alice.uncheck('input[name=mail-end]');
  await alice.click('button[name=mail-save]');
  await alice.waitForSelector('.mail-status:has-text("A confirmation link was mailed to alice@example.org")', { timeout: T });
  await shot(alice, 'settings-confirmation-sent');

  // The confirmation mail's link confirms it.
  const [confirm] = await until(() => mails().length >= 1 && mails(), 'the confirmation mail');
  assert.equal(confirm.to, 'alice@example.org');
  assert.match(confirm.subject, /^Confirm your address for Hisha \(alice\)$/);
  const link = confirm.body.match(/https:\/\/shogi\.example\.org\/(#\/mail\/confirm\/[0-9a-f]{64})/);
  assert.ok(link, confirm.body);
  await alice.goto(base + link[1]);
  await alice.waitForSelector('.mail-result:has-text("Your address is confirmed, alice")', { timeout: T });
  await shot(alice, 'confirmed');
  assert.deepEqual(await api(base, (await api(base, '', 'POST', 'login', { name: 'alice', password: 'alice-secret-1' })).token, 'GET', 'mail'),
    { address: 'alice@example.org', confirmed: true, kinds: ['turn', 'challenge', 'message'] });

  // Alice leaves (no page open); Bob opens a correspondence game and moves: her turn is mailed.
  await ctx.close();
  await until(async () => !(await api(base, '', 'GET', 'who')).some((u) => u.name === 'alice'), 'alice gone');
  const game = await api(base, bob, 'POST', 'games', { opponent: 'alice', color: 'black', time_control: 'corr-3' });
  await api(base, bob, 'POST', `games/${game.id}/move`, { move: '7g7f' });
  const all = await until(() => mails().length >= 2 && mails(), 'the your-turn mail');
  const turn = all[1];
  assert.equal(turn.to, 'alice@example.org');
  assert.equal(turn.subject, `Your turn in game ${game.id}: bob played ▲７六歩`);
  assert.ok(turn.body.includes(`bob played ▲７六歩 (P-7f) in game ${game.id}, and it is your turn.`), turn.body);
  assert.ok(turn.body.includes(`${PUBLIC}/#/game/${game.id}`));
  assert.match(turn.raw, /\r\nList-Unsubscribe: <https:\/\/shogi\.example\.org\/api\/mail\/unsubscribe\/[0-9a-f]{64}>\r\n/);

  // The mail's game link opens the game; its unsubscribe link stops the mail.
  const ctx2 = await browser.newContext({ viewport: { width: 1100, height: 800 }, locale: 'en-US' });
  const page = await ctx2.newPage();
  await page.goto(base);
  await page.fill('input[name=name]', 'alice');
  await page.fill('input[name=password]', 'alice-secret-1');
  await page.click('button[name=login]');
  await page.waitForSelector('#play-engine', { timeout: T });
  await page.goto(`${base}#/game/${game.id}`);
  await page.waitForSelector('sg-board', { timeout: T });
  await shot(page, 'game-from-mail');
  const unsubscribe = turn.body.match(/https:\/\/shogi\.example\.org\/(#\/mail\/unsubscribe\/[0-9a-f]{64})/);
  assert.ok(unsubscribe, turn.body);
  await page.goto(base + unsubscribe[1]);
  await page.waitForSelector('.mail-result:has-text("No more mail for alice")', { timeout: T });
  await shot(page, 'unsubscribed');
  await page.goto(`${base}#/settings`);
  await page.waitForSelector('.mail-status:has-text("Mail goes to alice@example.org")', { timeout: T });
  for (const kind of ['turn', 'challenge', 'end', 'message']) assert.equal(await page.isChecked(`input[name=mail-${kind}]`), false);
  await shot(page, 'settings-after-unsubscribe');
  console.log('mail: all checks passed');
});
