// What the browser test (web.test.mjs) and the guide's screenshots (shots.mjs) share: a real
// hisha-server on a free loopback port with a scratch SQLite database, registering and logging in
// through the page, forms filled by field name, and moves played on the board by dragging.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { connect, createServer } from 'node:net';

export const T = 20000; // generous waits: the machine may be busy

/// The arguments `--name value ...` as an object.
export function parseArgs(argv) {
  const args = {};
  for (let i = 2; i < argv.length; i += 2) args[argv[i].replace(/^--/, '')] = argv[i + 1];
  return args;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/// hisha-server with HTTP (text off, CSA on `csaPort` when given), the database `db` (a file
/// path), the page from `staticDir`, and the bots `bots` (as --bots takes them).
export class HishaServer {
  constructor({ bin, db, staticDir, bots, csaPort = -1, extra = [] }) {
    Object.assign(this, { bin, db, staticDir, bots, csaPort, extra });
    this.log = '';
    this.proc = null;
  }

  async start(port) {
    this.proc = spawn(this.bin, [
      '--db', `sqlite:${this.db}`, '--http-port', String(port), '--text-port', '-1', '--csa-port', String(this.csaPort),
      '--password-cost', 'min', '--static', this.staticDir, '--bots', this.bots, ...this.extra,
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc.stdout.on('data', (d) => (this.log += d));
    this.proc.stderr.on('data', (d) => (this.log += d));
    for (let i = 0; i < 200; i++) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/api/who`);
        if (r.ok) return;
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('hisha-server did not start:\n' + this.log);
  }

  /// Stops the server; its exit code (null when a signal ended it).
  async stop(signal = 'SIGKILL') {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return p?.exitCode ?? null;
    const done = new Promise((r) => p.once('exit', (code) => r(code)));
    p.kill(signal);
    return done;
  }
}

/// A CSA client on 127.0.0.1:`port`: send(line) and readUntil(text), which waits for `text` and
/// gives everything read up to its end.
export async function csaClient(port) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let got = '';
  let wake = () => {};
  socket.on('data', (d) => {
    got += d;
    wake();
  });
  return {
    send: (line) => socket.write(line + '\n'),
    async readUntil(text, ms = T) {
      const deadline = Date.now() + ms;
      while (!got.includes(text)) {
        if (Date.now() > deadline) throw new Error(`CSA: no ${JSON.stringify(text)} in ${JSON.stringify(got)}`);
        await new Promise((r) => {
          wake = r;
          setTimeout(r, 100);
        });
      }
      const end = got.indexOf(text) + text.length;
      const part = got.slice(0, end);
      got = got.slice(end);
      return part;
    },
    close: () => socket.destroy(),
  };
}

/// Registers `name` (password `<name>-secret-1`) through the page's form, on `base`.
export async function registerOn(page, base, name) {
  await page.goto(base);
  await page.fill('input[name=name]', name);
  await page.fill('input[name=password]', `${name}-secret-1`);
  await page.click('button[name=register]');
  await page.waitForSelector('#play-engine', { timeout: T });
}

/// Logs `name` in through the form of a page showing it.
export async function login(page, name) {
  await page.waitForSelector('form.login', { timeout: T });
  await page.fill('input[name=name]', name);
  await page.fill('input[name=password]', `${name}-secret-1`);
  await page.click('button[name=login]');
  await page.waitForSelector('#play-engine', { timeout: T });
}

/// Fills the fields of the form `form` by name, in order (an input typed into, a select chosen
/// from), and presses its button named `button`.
export async function submitForm(page, form, fields, button) {
  for (const [name, value] of Object.entries(fields)) {
    const field = `${form} :is(input, select)[name=${name}]`;
    if ((await page.locator(field).evaluate((e) => e.tagName)) === 'SELECT') await page.selectOption(field, value);
    else await page.fill(field, value);
  }
  await page.click(`${form} button[name=${button}]`);
}

/// The centre of a square (USI "7g") on the page's board, whichever way it is turned.
export async function squareCenter(page, sq) {
  const box = await page.locator('sg-board').boundingBox();
  const gote = await page.locator('.sg-wrap.orientation-gote').count();
  const file = Number(sq[0]);
  const rank = sq.charCodeAt(1) - 97;
  const col = gote ? file - 1 : 9 - file;
  const row = gote ? 8 - rank : rank;
  return { x: box.x + ((col + 0.5) * box.width) / 9, y: box.y + ((row + 0.5) * box.height) / 9 };
}

/// Waits for the page to draw two frames (shogiground follows a drag in animation frames).
export async function frames(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/// A drag as a hand makes it, over several frames: shogiground starts a drag in an animation
/// frame after the pointer moved, so a button released before any frame was drawn (all the
/// events at once on a busy machine) would be a click, not a move.
export async function drag(page, from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await frames(page);
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await frames(page);
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await frames(page);
  await page.mouse.up();
}

/// Plays a USI move by dragging; "+" answers the promotion prompt, a drop drags from the hand.
export async function play(page, usi) {
  const to = await squareCenter(page, usi.slice(2, 4));
  if (usi[1] === '*') {
    const role = { P: 'pawn', L: 'lance', N: 'knight', S: 'silver', G: 'gold', B: 'bishop', R: 'rook' }[usi[0]];
    const piece = page.locator(`sg-hand-wrap.hand-bottom piece.${role}`);
    const b = await piece.boundingBox();
    await drag(page, { x: b.x + b.width / 2, y: b.y + b.height / 2 }, to);
  } else {
    await drag(page, await squareCenter(page, usi.slice(0, 2)), to);
    if (usi.endsWith('+')) {
      const prompt = page.locator('sg-promotion-choices piece').first();
      await prompt.waitFor({ timeout: T });
      await prompt.click();
    }
  }
}

export async function plies(page) {
  return page.locator('ol.moves li').count();
}
export async function waitPlies(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('ol.moves li').length >= k, n, { timeout: 60000 });
}

/// Numbered screenshots in `out` (01-NAME.png, 02-...): the function that takes one of a page.
/// `fullPage`: the whole page, not the viewport; `before(page)`: awaited first (an animation's end).
export function screenshots(out, { fullPage = false, before } = {}) {
  let step = 0;
  return async (page, name) => {
    if (before) await before(page);
    step += 1;
    const file = path.join(out, `${String(step).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file, fullPage });
    console.log(`screenshot ${file}`);
  };
}

/// One browser test: `server` (a HishaServer) started on a free port, headless Chromium
/// (`args.chromium`), then `body(browser, base)`. On a failure: a picture of every open page
/// (`shot`, named "failed") and the end of the server's log. Both stopped; the process exits 0 or 1.
export async function runBrowserTest(server, args, shot, body) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  await server.start(port);
  const browser = await chromium.launch({ executablePath: args.chromium, headless: true, args: ['--no-sandbox'] });
  let failed = false;
  try {
    await body(browser, base);
  } catch (e) {
    failed = true;
    console.error(e);
    for (const c of browser.contexts()) for (const p of c.pages()) await shot(p, 'failed').catch(() => {});
    console.error(server.log.slice(-4000));
  } finally {
    await browser.close();
    await server.stop();
  }
  process.exit(failed ? 1 : 0);
}

/// A test's own API requests as NAME (password NAME-secret-1), with a token as a script has one.
export function client(base, name) {
  let token;
  return async (method, target, body) => {
    if (!token) {
      const r = await fetch(base + 'api/login', { method: 'POST', body: JSON.stringify({ name, password: `${name}-secret-1` }) });
      token = (await r.json()).token;
    }
    const r = await fetch(base + 'api/' + target, {
      method, headers: { Authorization: `Bearer ${token}` }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${target}: ${r.status} ${text}`);
    return JSON.parse(text);
  };
}
