// The guide's pictures (scripts/screenshots.sh runs this): the web UI in Chromium through
// playwright-core against a real hisha-server (free loopback port, scratch SQLite database), at a
// fixed viewport: the lobby, a game in play, the analysis board with the engine's lines, the tsume
// solver; and a capture of the curses display (tmux capture-pane -e, given as --terminal) drawn
// as a terminal window. Writes OUT/{lobby,game,analysis,tsume,curses}.png (unoptimised).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { T, parseArgs, freePort, HishaServer, registerOn, submitForm, play, waitPlies } from './helpers.mjs';

const args = parseArgs(process.argv);
const VIEWPORT = { width: 1280, height: 800 };
const started = Date.now();

async function shot(page, name) {
  const file = path.join(args.out, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`screenshots: ${file} (at ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

async function person(browser, base, name) {
  const ctx = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log(`[${name}] page error: ${e.message}`));
  await registerOn(page, base, name);
  return page;
}

/// The web UI's four pictures.
async function web(browser, base) {
  const alice = await person(browser, base, 'alice');
  const bob = await person(browser, base, 'bob');
  const carol = await person(browser, base, 'carol');
  // A real-time game between alice (White) and bob (Black), a few moves in.
  await submitForm(alice, '#new-challenge', { pattern: 'bob', color: 'white', time_control: '600-30' }, 'post');
  await bob.waitForSelector('#challenges li.challenge button[name=accept]', { timeout: T });
  await bob.click('#challenges li.challenge button[name=accept]');
  await bob.waitForSelector('.game-page sg-board', { timeout: T });
  await alice.waitForSelector('.game-page sg-board', { timeout: T });
  const line = ['7g7f', '3c3d', '2g2f', '4c4d', '2f2e', '2b3c', '3i4h', '8b4b', '5i6h'];
  for (let i = 0; i < line.length; i++) {
    await play(i % 2 === 0 ? bob : alice, line[i]);
    await waitPlies(alice, i + 1);
    await waitPlies(bob, i + 1);
  }
  // Open challenges in carol's lobby: alice's to anyone, and one of carol's own.
  await alice.goto(base);
  await submitForm(alice, '#new-challenge', { pattern: '*', color: 'white', time_control: '300-10', comment: 'a quick game, anyone?' }, 'post');
  await submitForm(carol, '#new-challenge', { pattern: 'b*', color: 'white', time_control: 'corr-3' }, 'post');
  await carol.waitForFunction(() => document.querySelectorAll('#challenges li.challenge').length >= 2, null, { timeout: T });
  await carol.reload(); // the form empty again
  await carol.waitForFunction(() => document.querySelectorAll('#challenges li.challenge').length >= 2, null, { timeout: T });
  await carol.waitForSelector('#games li, #my-games li', { timeout: T }).catch(() => {});
  await carol.waitForTimeout(500);
  await shot(carol, 'lobby');
  // bob's board: the clocks run, White to move after the last move shown.
  await bob.waitForTimeout(1200);
  await shot(bob, 'game');

  // The analysis board: a record loaded (with a variation), a position in the opening, the
  // engine's three best lines with their arrows.
  await carol.goto(base + '#/analysis');
  await carol.waitForSelector('.analysis-page sg-board', { timeout: T });
  await carol.fill('textarea[name=record]', [
    '手合割：平手', '先手：carol', '後手：dave', '手数----指手---------消費時間--', '   1 ７六歩(77)',
    '   2 ３四歩(33)', '   3 ２六歩(27)', '   4 ８四歩(83)', '   5 ２五歩(26)', '   6 ８五歩(84)',
    '', '変化：3手', '   3 ６六歩(67)', '   4 ８四歩(83)', ''].join('\n'));
  await carol.click('button[name=load]');
  await carol.waitForSelector('button.variation', { timeout: T });
  await carol.click('.tree .move[data-ply="6"]');
  await carol.waitForSelector('.tree .move.current[data-ply="6"]', { timeout: T });
  await carol.click('button[name=analyze]');
  await carol.waitForFunction(() => document.querySelectorAll('ol.pv li').length >= 3, null, { timeout: 60000 });
  await carol.waitForSelector('.sg-shapes line', { state: 'attached', timeout: T });
  await carol.waitForTimeout(2500);
  await shot(carol, 'analysis');
  await carol.click('button[name=analyze]');

  // The tsume solver: a mate in 7 (tanuki-m7-p005 of tests/data/vectors/tsume.tsv) set by SFEN,
  // on a fresh analysis page; the solution then shown as the page's moves.
  await carol.goto(base);
  await carol.waitForSelector('#play-engine', { timeout: T });
  await carol.goto(base + '#/analysis');
  await carol.waitForSelector('.analysis-page sg-board', { timeout: T });
  await carol.fill('input[name=sfen]', '9/8B/9/7Nk/9/4B2R1/9/9/9 b r4g4s3n4l18p 1');
  await carol.press('input[name=sfen]', 'Enter');
  await carol.waitForFunction(() => /^9\/8B\//.test(document.querySelector('input[name=sfen]').value), null, { timeout: T });
  await carol.click('button[name=solve-current]');
  await carol.waitForSelector('.tsume-result', { timeout: 30000 });
  const result = await carol.textContent('.tsume-out');
  if (!/Mate in 7/.test(result)) throw new Error(`the tsume solver answered: ${result}`);
  await carol.click('button[name=show-solution]');
  await carol.waitForSelector('.tree .move[data-ply="7"]', { timeout: T });
  await carol.waitForTimeout(300);
  await shot(carol, 'tsume');
}

/// The text of `tmux capture-pane -e` as HTML: SGR bold, reverse and colours; the cursor as a block.
function terminalHtml(capture, cursor, title) {
  const base16 = ['#1d1f21', '#cc6666', '#8ca35b', '#d6a74b', '#5f87af', '#a67db5', '#5ea3a3', '#c5c8c6',
    '#666666', '#e07070', '#a8c46a', '#f0c674', '#81a2be', '#b294bb', '#8abeb7', '#ffffff'];
  const colour256 = (n) => {
    if (n < 16) return base16[n];
    if (n >= 232) { const v = 8 + (n - 232) * 10; return `rgb(${v},${v},${v})`; }
    const c = n - 16, s = [0, 95, 135, 175, 215, 255];
    return `rgb(${s[Math.floor(c / 36)]},${s[Math.floor(c / 6) % 6]},${s[c % 6]})`;
  };
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const rows = capture.replace(/\n$/, '').split('\n');
  const html = rows.map((row, y) => {
    let st = { bold: false, rev: false, fg: null, bg: null };
    let out = '', col = 0;
    const put = (ch) => {
      let fg = st.fg, bg = st.bg;
      if (st.rev) [fg, bg] = [bg || 'var(--bg)', fg || 'var(--fg)'];
      const isCursor = cursor && cursor.y === y && cursor.x === col;
      if (isCursor) [fg, bg] = ['var(--bg)', 'var(--fg)'];
      const style = [fg && `color:${fg}`, bg && `background:${bg}`, st.bold && 'font-weight:bold'].filter(Boolean).join(';');
      out += style ? `<span style="${style}">${esc(ch)}</span>` : esc(ch);
      col += 1;
    };
    for (let i = 0; i < row.length; i++) {
      if (row[i] === '\x1b' && row[i + 1] === '[') {
        const m = /^\x1b\[([0-9;]*)([A-Za-z])/.exec(row.slice(i));
        if (!m) continue;
        i += m[0].length - 1;
        if (m[2] !== 'm') continue;
        const p = m[1] === '' ? [0] : m[1].split(';').map(Number);
        for (let k = 0; k < p.length; k++) {
          const v = p[k];
          if (v === 0) st = { bold: false, rev: false, fg: null, bg: null };
          else if (v === 1) st.bold = true;
          else if (v === 22) st.bold = false;
          else if (v === 7) st.rev = true;
          else if (v === 27) st.rev = false;
          else if (v >= 30 && v <= 37) st.fg = base16[v - 30];
          else if (v >= 90 && v <= 97) st.fg = base16[v - 90 + 8];
          else if (v >= 40 && v <= 47) st.bg = base16[v - 40];
          else if (v >= 100 && v <= 107) st.bg = base16[v - 100 + 8];
          else if (v === 39) st.fg = null;
          else if (v === 49) st.bg = null;
          else if ((v === 38 || v === 48) && p[k + 1] === 5) {
            st[v === 38 ? 'fg' : 'bg'] = colour256(p[k + 2]);
            k += 2;
          }
        }
        continue;
      }
      put(row[i]);
    }
    while (cursor && cursor.y === y && col <= cursor.x) put(' ');
    return out;
  }).join('\n');
  return `<!doctype html><meta charset="utf-8"><style>
  :root { --bg: #1d1f21; --fg: #d8dad8; }
  html, body { margin: 0; background: #3a3c3e; height: 100%; }
  .window { position: absolute; inset: 0; display: flex; flex-direction: column; }
  .title { height: 28px; line-height: 28px; text-align: center; font: 13px 'DejaVu Sans', sans-serif;
           color: #c8c8c8; background: #2b2d2f; border-bottom: 1px solid #111; }
  .title i { position: absolute; top: 9px; width: 11px; height: 11px; border-radius: 50%; }
  pre { flex: 1; margin: 0; padding: 10px 12px; background: var(--bg); color: var(--fg); overflow: hidden;
        font: 15px/18px 'DejaVu Sans Mono', monospace; }
  </style><div class="window"><div class="title"><i style="left:12px;background:#e06c60"></i><i style="left:30px;background:#e0b050"></i><i style="left:48px;background:#70b850"></i>${esc(title)}</div><pre>${html}</pre></div>`;
}

async function curses(browser) {
  const capture = fs.readFileSync(args.terminal, 'utf8');
  const [x, y] = (args.cursor || '').split(/\s+/).map(Number);
  const cols = Number(args.cols), rows = Number(args.rows);
  // 15px DejaVu Sans Mono: 9.03 px a column, 18 px a row; the title bar and padding around.
  const viewport = { width: Math.ceil(cols * 9.04) + 24, height: rows * 18 + 20 + 29 };
  const ctx = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.setContent(terminalHtml(capture, Number.isFinite(y) ? { x, y } : null, args.title || 'hisha -C'));
  await shot(page, 'curses');
  await ctx.close();
}

async function main() {
  const browser = await chromium.launch({ executablePath: args.chromium, headless: true, args: ['--no-sandbox'] });
  let server = null;
  let failed = false;
  try {
    if (args.terminal) await curses(browser);
    if (args.server) {
      const port = await freePort();
      server = new HishaServer({ bin: args.server, db: path.join(args.work, 'shots.db'), staticDir: args.static, bots: 'hisha-10kyu=5,hisha-max=20' });
      await server.start(port);
      await web(browser, `http://127.0.0.1:${port}/`);
    }
  } catch (e) {
    failed = true;
    console.error(e);
    if (server) console.error('--- server log\n' + server.log.slice(-3000));
  } finally {
    await browser.close();
    if (server) await server.stop('SIGTERM').catch(() => {});
  }
  process.exit(failed ? 1 : 0);
}

main();
