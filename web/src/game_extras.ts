// What the game page adds around the board (game.ts): each move's clock time, the score graph
// of a game whose engines sent their evaluations, the share link and the embeddable board's
// iframe code, the spectators count (pushed by the server), and the chat's mute per player (localStorage)
// with say (a player) told from kibitz (a watcher).
import { Game, get } from './api';
import { app } from './app';
import { clear, h, toast } from './dom';
import { currentLang } from './i18n';

const TEXT = {
  share: ['Share', '共有'], copyLink: ['Copy link', 'リンクをコピー'], copied: ['Copied', 'コピーしました'],
  embed: ['Embed (iframe)', '埋め込み (iframe)'], watching: ['watching', '人が観戦中'], mute: ['Mute', 'ミュート'],
  unmute: ['Unmute', 'ミュート解除'], kibitz: ['kibitz', '観戦者'], scoreGraph: ['Score graph', '評価値グラフ'],
  muted: ['Muted', 'ミュート中'],
} as const;
const tx = (k: keyof typeof TEXT) => TEXT[k][currentLang() === 'ja' ? 1 : 0];

/// A move's clock time: "3s", "1:05".
export function spentText(ms: number | undefined): string {
  if (ms === undefined) return '';
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// --- mute (names kept lower-case in localStorage 'hisha.muted')
const MUTED = 'hisha.muted';
export function mutedNames(): string[] {
  try {
    return JSON.parse(localStorage.getItem(MUTED) || '[]');
  } catch {
    return [];
  }
}
export function isMuted(name: string): boolean {
  return mutedNames().includes(name.toLowerCase());
}
function setMuted(name: string, on: boolean): void {
  const set = new Set(mutedNames());
  if (on) set.add(name.toLowerCase());
  else set.delete(name.toLowerCase());
  localStorage.setItem(MUTED, JSON.stringify([...set]));
}

/// A chat line: "name (kibitz): text" for a watcher, with its mute button; empty when muted.
export function chatLine(game: Game | undefined, from: string, text: string, onMute: () => void): HTMLElement | null {
  if (isMuted(from)) return null;
  const player = game && (game.black === from || game.white === from);
  return h('li', { 'data-from': from, class: player ? 'say' : 'kibitz' },
    h('b', from), player ? '' : h('span.meta', ` (${tx('kibitz')})`), ': ', text, ' ',
    h('button.ghost.small.mute', { name: 'mute', title: `${tx('mute')} ${from}`, onclick: () => { setMuted(from, true); onMute(); } }, '🔇'));
}

/// The muted names, each with its unmute button.
export function mutedList(el: HTMLElement): void {
  const names = mutedNames();
  clear(el, names.length ? [h('span.meta', tx('muted'), ': '), names.map((n) => h('button.ghost.small', { name: 'unmute', 'data-name': n, onclick: () => { setMuted(n, false); mutedList(el); } }, `${n} ✕`))] : null);
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag: string, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/// The engines' scores over the game (from Black's side, clipped to +-2000), a click on a
/// point going to that ply; null when no move carries a score.
export function scoreGraph(game: Game, go: (ply: number) => void): Element | null {
  const pts = (game.moves ?? []).filter((m) => m.eval).map((m) => ({ ply: m.ply, score: Math.max(-2000, Math.min(2000, m.eval!.score)) }));
  if (!pts.length) return null;
  const W = 300, H = 100, n = Math.max(1, game.moves!.length);
  const x = (ply: number) => (ply * W) / n, y = (s: number) => H / 2 - (s * (H / 2 - 4)) / 2000;
  return h('div.card.score-graph', h('h3', tx('scoreGraph')),
    svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'score-plot', role: 'img', 'aria-label': tx('scoreGraph') },
      svg('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'grid' }),
      svg('polyline', { points: pts.map((p) => `${x(p.ply).toFixed(1)},${y(p.score).toFixed(1)}`).join(' '), class: 'line', fill: 'none' }),
      ...pts.map((p) => {
        const c = svg('circle', { cx: x(p.ply), cy: y(p.score), r: 2.5, class: 'point' }, svg('title', {}, `${p.ply}: ${p.score}`));
        c.addEventListener('click', () => go(p.ply));
        return c;
      })));
}

async function copy(text: string, field?: HTMLInputElement | HTMLTextAreaElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast(tx('copied'), 'info');
  } catch {
    field?.select(); // no clipboard here (an insecure origin): the text is selected for Ctrl+C
  }
}

/// The share card: the game's link and the embed code, each with a copy button.
export function shareCard(id: number): HTMLElement {
  const url = `${location.origin}/#/game/${id}`;
  const code = `<iframe src="${location.origin}/embed/${id}" width="400" height="480" style="border:0" title="Hisha game ${id}"></iframe>`;
  const link = h('input', { name: 'share-url', value: url, readonly: true, 'aria-label': tx('share') });
  const embed = h('textarea', { name: 'embed-code', rows: 2, readonly: true, 'aria-label': tx('embed') }, code);
  return h('div.card.share', h('h3', tx('share')),
    h('div.row', link, h('button', { name: 'copy-link', onclick: () => copy(url, link) }, tx('copyLink'))),
    h('label', tx('embed'), embed, h('button', { name: 'copy-embed', onclick: () => copy(code, embed) }, '📋')),
    h('a', { href: `/embed/${id}`, target: '_blank', rel: 'noopener' }, `/embed/${id}`));
}

/// The spectators count of game `id`: asked once (again after the live socket reconnects), then
/// kept by the server's "spectators" events (sent whenever someone starts or stops watching);
/// returns its element and what stops it.
export function spectatorsBadge(id: number): [HTMLElement, () => void] {
  const el = h('span.spectators', { 'aria-live': 'polite', 'data-count': 0 }, '');
  let events = 0; // an answer asked before the last event is older than it
  const show = (s: { count: number; names: string[] }) => {
    el.dataset.count = String(s.count);
    el.title = s.names.join(', ');
    el.textContent = `👁 ${s.count} ${tx('watching')}`;
  };
  const ask = async () => {
    const before = events;
    try {
      const s = await get<{ count: number; names: string[] }>(`games/${id}/spectators`);
      if (events === before) show(s);
    } catch {
      /* the count stays as it was */
    }
  };
  void ask();
  const off = app.live?.on((e) => {
    if (e.type !== 'spectators' || e.game !== id) return;
    ++events;
    show({ count: Number(e.count) || 0, names: Array.isArray(e.names) ? e.names.map(String) : [] });
  });
  const offStatus = app.live?.onStatus((up) => up && void ask());
  return [el, () => { off?.(); offStatus?.(); }];
}
