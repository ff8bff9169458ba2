// A player's page (#/player/NAME): rating and record, the rating history as a plot (inline
// SVG), results by colour and by time control, and every finished game, filterable (opponent,
// result, time control, dates), each opening as a replay (#/game/N), with the downloads of one
// game or of all the games shown (KIF in Shift_JIS, KIFU in UTF-8, CSA).
import { User, get, myName } from './api';
import { clear, h } from './dom';
import { currentLang, t } from './i18n';
import { View } from './app';
import { downloadTitle } from './game';
import { suggestedHandicap } from './lobby';

/// The page's own texts, English and Japanese.
const TEXT = {
  history: ['Rating history', 'レーティング推移'], byColor: ['Results by colour', '先後別成績'],
  byTc: ['Results by time control', '持ち時間別成績'], games: ['Games', '対局'], opponent: ['Opponent', '相手'],
  result: ['Result', '結果'], any: ['any', 'すべて'], win: ['win', '勝ち'], loss: ['loss', '負け'], draw: ['draw', '引分'],
  from: ['From', '開始日'], to: ['To', '終了日'], filter: ['Filter', '絞り込み'], date: ['Date', '日付'],
  color: ['Colour', '手番'], plies: ['Moves', '手数'], reason: ['How', '終局'], replay: ['Replay', '再生'],
  downloadAll: ['Download these games', 'これらの対局をダウンロード'], noGames: ['No games.', '対局はありません。'],
  noHistory: ['No rated game yet.', 'レーティング対象の対局はまだありません。'], black: ['Black', '先手'], white: ['White', '後手'],
  shown: ['shown', '件表示'], of: ['of', '/'], more: ['More', 'さらに表示'],
} as const;
const tx = (k: keyof typeof TEXT) => TEXT[k][currentLang() === 'ja' ? 1 : 0];

interface Tally { wins: number; losses: number; draws: number }
interface HistoryPoint { time: number; game: number; rating: number; deviation: number }
interface Profile extends User {
  history: HistoryPoint[]; by_color: { black: Tally; white: Tally }; by_time_control: (Tally & { time_control: string })[];
  games: number; created: number;
}
export interface ListedGame {
  id: number; black: string; white: string; color: 'black' | 'white'; opponent: string; result: 'win' | 'loss' | 'draw';
  winner: string; reason: string; time_control: string; started: number; ended: number; plies: number; rating_after?: number;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag: string, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/// The rating after each rated game, oldest first, as a line with a point per game (its
/// rating, deviation band and date in the point's title; a click opens the game).
export function ratingPlot(points: HistoryPoint[]): Element {
  if (!points.length) return h('p.meta', tx('noHistory'));
  const W = 560, H = 180, L = 44, R = 10, T = 10, B = 24;
  const lo = Math.min(...points.map((p) => p.rating - p.deviation / 4)), hi = Math.max(...points.map((p) => p.rating + p.deviation / 4));
  const span = Math.max(50, hi - lo), bottom = lo - span * 0.05, top = hi + span * 0.05;
  const x = (i: number) => L + (points.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (points.length - 1));
  const y = (r: number) => T + ((top - r) * (H - T - B)) / (top - bottom);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  const grid = [top, (top + bottom) / 2, bottom].map((r) => [
    svg('line', { x1: L, x2: W - R, y1: y(r), y2: y(r), class: 'grid' }),
    svg('text', { x: L - 4, y: y(r) + 4, 'text-anchor': 'end', class: 'axis' }, String(Math.round(r))),
  ]).flat();
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const dots = points.map((p, i) => {
    const a = svg('a', { href: `#/game/${p.game}` },
      svg('circle', { cx: x(i), cy: y(p.rating), r: 3.5, class: 'point', 'data-rating': p.rating },
        svg('title', {}, `${day(p.time)}  ${p.rating} ± ${p.deviation}  (#${p.game})`)));
    return a;
  });
  return svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-plot', role: 'img', 'aria-label': `${tx('history')}: ${points.map((p) => p.rating).join(', ')}` },
    ...grid,
    svg('polyline', { points: line, class: 'line', fill: 'none' }),
    svg('text', { x: L, y: H - 6, class: 'axis' }, day(points[0].time)),
    svg('text', { x: W - R, y: H - 6, 'text-anchor': 'end', class: 'axis' }, day(points[points.length - 1].time)),
    ...dots);
}

function tallyRow(label: string, r: Tally): HTMLElement {
  const n = r.wins + r.losses + r.draws;
  return h('tr', h('th', label), h('td', String(r.wins)), h('td', String(r.losses)), h('td', String(r.draws)),
    h('td', n ? `${Math.round((100 * (r.wins + r.draws / 2)) / n)}%` : '—'));
}

function tallyTable(caption: string, rows: HTMLElement[], cls: string): HTMLElement {
  return h(`table.results.${cls}` as 'table', h('caption', caption),
    h('thead', h('tr', h('th', ''), h('th', tx('win')), h('th', tx('loss')), h('th', tx('draw')), h('th', '%'))), h('tbody', rows));
}

const FORMATS = ['kif', 'kifu', 'csa'];

function gameRow(g: ListedGame): HTMLElement {
  const when = new Date(g.ended);
  return h('tr', { 'data-game': g.id, class: `result-${g.result}` },
    h('td', when.toISOString().slice(0, 16).replace('T', ' ')),
    h('td', g.color === 'black' ? '☗' : '☖'),
    h('td', h('a', { href: `#/player/${encodeURIComponent(g.opponent)}` }, g.opponent)),
    h('td.result', tx(g.result)),
    h('td', g.reason.replace(/_/g, ' ')),
    h('td', g.time_control),
    h('td', String(g.plies)),
    h('td', h('a.button.small.replay', { href: `#/game/${g.id}` }, tx('replay')),
      FORMATS.map((f) => h('a.small.download', { href: `/api/games/${g.id}/record?format=${f}`, download: `hisha-${g.id}.${f}`, title: downloadTitle(f) }, f.toUpperCase()))));
}

/// The filter form of the games list; `apply(query)` with the query string of its values.
function filterForm(p: Profile, apply: (query: URLSearchParams) => void): HTMLFormElement {
  const opponent = h('input', { name: 'opponent', placeholder: tx('opponent'), 'aria-label': tx('opponent'), size: 12 });
  const result = h('select', { name: 'result', 'aria-label': tx('result') },
    h('option', { value: '' }, tx('any')), (['win', 'loss', 'draw'] as const).map((r) => h('option', { value: r }, tx(r))));
  const tc = h('select', { name: 'time_control', 'aria-label': t('timeControl') },
    h('option', { value: '' }, tx('any')), p.by_time_control.map((x) => h('option', { value: x.time_control }, x.time_control)));
  const from = h('input', { name: 'from', type: 'date', 'aria-label': tx('from') });
  const to = h('input', { name: 'to', type: 'date', 'aria-label': tx('to') });
  const form = h('form.row.filters',
    h('label', tx('opponent'), ' ', opponent), h('label', tx('result'), ' ', result), h('label', t('timeControl'), ' ', tc),
    h('label', tx('from'), ' ', from), h('label', tx('to'), ' ', to), h('button', { type: 'submit', name: 'filter' }, tx('filter')));
  form.onsubmit = (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const [k, el] of [['opponent', opponent], ['result', result], ['time_control', tc], ['from', from], ['to', to]] as const)
      if (el.value.trim()) q.set(k, el.value.trim());
    apply(q);
  };
  return form;
}

/// The games list under its filters, paged by 50, with the download of all of them.
function gamesSection(p: Profile): HTMLElement {
  const body = h('tbody');
  const count = h('span.meta.count');
  const downloads = h('div.row.download-all');
  const more = h('button.more', { name: 'more', hidden: true }, tx('more'));
  let query = new URLSearchParams();
  let shown = 0;
  const base = `users/${encodeURIComponent(p.name)}/games`;
  const load = async (reset: boolean) => {
    if (reset) {
      shown = 0;
      clear(body);
    }
    const q = new URLSearchParams(query);
    q.set('offset', String(shown));
    q.set('limit', '50');
    const list = await get<{ total: number; games: ListedGame[] }>(`${base}?${q}`);
    body.append(...list.games.map(gameRow));
    shown += list.games.length;
    if (!shown) body.append(h('tr', h('td', { colspan: 8 }, tx('noGames'))));
    count.textContent = `${shown} ${tx('of')} ${list.total}`;
    more.hidden = shown >= list.total;
    clear(downloads, h('span', tx('downloadAll'), ' '), FORMATS.map((f) => {
      const dq = new URLSearchParams(query);
      dq.set('format', f);
      return h('a.button.small', { href: `/api/${base}/records?${dq}`, download: `hisha-${p.name}-games.${f}`, title: downloadTitle(f), 'data-format': f }, f.toUpperCase());
    }));
  };
  more.onclick = () => void load(false);
  const form = filterForm(p, (q) => {
    query = q;
    void load(true);
  });
  void load(true);
  return h('div.card.player-games', h('h2', tx('games'), ' ', count), form, downloads,
    h('table.games', h('thead', h('tr', h('th', tx('date')), h('th', tx('color')), h('th', tx('opponent')), h('th', tx('result')),
      h('th', tx('reason')), h('th', t('timeControl')), h('th', tx('plies')), h('th', ''))), body), more);
}

export function playerView(name: string): View {
  const el = h('div.player-page', h('div.card.player', h('h1', name)));
  (async () => {
    try {
      const p = await get<Profile>(`users/${encodeURIComponent(name)}`);
      const card = el.firstElementChild as HTMLElement;
      const me = myName();
      const mine = me && me.toLowerCase() !== p.name.toLowerCase() ? await get<Profile>(`users/${encodeURIComponent(me)}`).catch(() => undefined) : undefined;
      card.append(
        h('dl',
          h('dt', t('rating')), h('dd.rating', `${p.rating} ± ${p.deviation}`),
          h('dt', t('recordStats')), h('dd', `${p.wins} / ${p.losses} / ${p.draws}`),
          h('dt', t('online')), h('dd', p.online ? '●' : '—'),
          mine ? [h('dt', t('handicapHint')), h('dd', suggestedHandicap(mine.rating, p.rating))] : null));
      el.append(
        h('div.card.history', h('h2', tx('history')), ratingPlot(p.history)),
        h('div.card.results',
          tallyTable(tx('byColor'), [tallyRow(`☗ ${tx('black')}`, p.by_color.black), tallyRow(`☖ ${tx('white')}`, p.by_color.white)], 'by-color'),
          tallyTable(tx('byTc'), p.by_time_control.map((x) => tallyRow(x.time_control, x)), 'by-tc')),
        gamesSection(p));
    } catch (e) {
      el.append(h('p.error', String((e as Error).message)));
    }
  })();
  return { el };
}
