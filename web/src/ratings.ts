// The public rating list (#/ratings): every player with a finished game, best first (GET
// /api/ratings: Glicko-2 rating, deviation, games), and per scheduled tournament (GET
// /api/tournaments) its latest games with links to their CSA records. No login needed.
import { get } from './api';
import { clear, h } from './dom';
import { t } from './i18n';
import { View } from './app';

interface Rated {
  name: string;
  rating: number;
  deviation: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  bot: boolean;
}

interface Tournament {
  pattern: string;
  interval_s: number;
  next_round: number;
  rounds: number;
  games: number;
}

interface ListedGame {
  id: number;
  black: string;
  white: string;
  game_name: string;
  status: string;
  winner: string; // black, white, draw or empty
  reason: string;
  updated: number;
  record: string;
}

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
const player = (name: string) => h('a', { href: `#/player/${encodeURIComponent(name)}` }, name);

function ratingTable(list: Rated[]): HTMLElement {
  if (!list.length) return h('p.meta', t('noRatings'));
  return h('table.players.ratings',
    h('thead', h('tr', h('th', '#'), h('th', t('name')), h('th', t('rating')), h('th', t('deviation')), h('th', t('gamesPlayed')), h('th', t('recordStats')))),
    h('tbody', list.map((r, i) =>
      h('tr', { 'data-player': r.name },
        h('td', i + 1), h('td', player(r.name), r.bot ? ` (${t('engine')})` : ''), h('td.rating', r.rating), h('td', `± ${r.deviation}`),
        h('td', r.games), h('td', `${r.wins} / ${r.losses} / ${r.draws}`)))));
}

function result(g: ListedGame): string {
  if (g.status !== 'finished') return g.status === 'active' ? t('inProgress') : g.status;
  const who = g.winner === 'black' ? t('blackWins') : g.winner === 'white' ? t('whiteWins') : g.winner === 'draw' ? t('draw') : t('ended');
  return g.reason ? `${who} (${g.reason})` : who;
}

async function tournamentSection(tour: Tournament): Promise<HTMLElement> {
  const games = await get<ListedGame[]>(`tournaments/${encodeURIComponent(tour.pattern)}/games`);
  return h('section.tournament', { 'data-pattern': tour.pattern },
    h('h2', tour.pattern),
    h('p.meta', `${t('rounds')}: ${tour.rounds} · ${t('nextRound')}: ${when(tour.next_round)} UTC`),
    games.length
      ? h('table.players',
          h('thead', h('tr', h('th', t('when')), h('th', t('black')), h('th', t('white')), h('th', t('result')), h('th', t('record')))),
          h('tbody', games.map((g) =>
            h('tr', { 'data-game': g.id },
              h('td', when(g.updated)), h('td', player(g.black)), h('td', player(g.white)),
              h('td', h('a', { href: `#/game/${g.id}` }, result(g))),
              h('td', h('a.csa-record', { href: g.record, download: `${g.game_name || 'game'}-${g.id}.csa` }, 'CSA'))))))
      : h('p.meta', t('noGames')));
}

export function ratingsView(): View {
  const ratings = h('div#rating-list');
  const tournaments = h('div#tournament-games');
  const msg = h('p.error', { role: 'alert' });
  const el = h('div.card.ratings-page', h('h1', t('ratings')), msg, ratings, h('h1', t('tournaments')), tournaments);
  (async () => {
    try {
      const [list, tours] = await Promise.all([get<Rated[]>('ratings'), get<{ tournaments: Tournament[] }>('tournaments')]);
      clear(ratings, ratingTable(list));
      const sections = await Promise.all(tours.tournaments.map(tournamentSection));
      clear(tournaments, sections.length ? sections : h('p.meta', t('noTournaments')));
    } catch (e) {
      msg.textContent = String((e as Error).message);
    }
  })();
  return { el };
}
