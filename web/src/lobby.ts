// The lobby (who is online, open challenges, my games, live games, messages, the engine),
// the login form and player pages.
import { Challenge, Game, User, get, myName, post, setLogin, call } from './api';
import { clear, h, toast } from './dom';
import { t } from './i18n';
import { app, View } from './app';
import { yourTurnCard } from './notify';
import { pauseTag, VacationCard } from './vacation';
import { guestButton } from './guest';

const TIME_CONTROLS: [string, string][] = [
  ['300-10', '5 min + 10 s byoyomi'],
  ['600-30', '10 min + 30 s byoyomi'],
  ['180-5F', '3 min + 5 s Fischer'],
  ['900-10F', '15 min + 10 s Fischer'],
  ['0-30', '30 s per move'],
  ['corr-3', 'Correspondence, 3 days per move'],
  ['corr-7', 'Correspondence, 7 days per move'],
];

// Handicaps by grade difference (000 "Handicaps", 003 "HANDICAPS"): the stronger player takes
// White and removes these pieces; one grade is taken as 100 rating points.
export const HANDICAPS: { grades: number; name: string; ja: string; removal: string }[] = [
  { grades: 1, name: 'Lance', ja: '香落ち', removal: 'L@1a' },
  { grades: 3, name: 'Bishop', ja: '角落ち', removal: 'B@2b' },
  { grades: 4, name: 'Rook', ja: '飛車落ち', removal: 'R@8b' },
  { grades: 5, name: 'Rook and lance', ja: '飛香落ち', removal: 'R@8b,L@1a' },
  { grades: 7, name: 'Two pieces', ja: '二枚落ち', removal: 'R@8b,B@2b' },
  { grades: 8, name: 'Four pieces', ja: '四枚落ち', removal: 'R@8b,B@2b,L@1a,L@9a' },
  { grades: 9, name: 'Six pieces', ja: '六枚落ち', removal: 'R@8b,B@2b,L@1a,L@9a,N@2a,N@8a' },
];

export function suggestedHandicap(ratingA: number, ratingB: number): string {
  const grades = Math.floor(Math.abs(ratingA - ratingB) / 100);
  let best = '';
  for (const hc of HANDICAPS) if (grades >= hc.grades) best = `${hc.name} (${hc.ja})`;
  if (grades === 2) best = 'Lance, then Bishop in the second game (香落ち／角落ち)';
  if (grades === 6) best = 'Rook and lance, then Two pieces (飛香落ち／二枚落ち)';
  return best || `${t('even')} (平手)`;
}

function select(name: string, options: [string, string][], value?: string): HTMLSelectElement {
  return h('select', { name, 'aria-label': name }, options.map(([v, label]) => h('option', { value: v, selected: v === value }, label)));
}

function gameLine(g: Game, me: string): HTMLElement {
  const mine = g.black === me || g.white === me;
  const myColor = g.black === me ? 'black' : 'white';
  const myTurn = mine && g.status === 'active' && g.to_move === myColor;
  return h(
    'li.game-line',
    { 'data-game': g.id },
    h('a', { href: `#/game/${g.id}` }, `#${g.id} ☗${g.black} ${t('vs')} ☖${g.white}`),
    h('span.meta', ` ${g.time_control} · ${g.plies} ${t('moves')} `),
    pauseTag(g),
    myTurn ? h('span.badge.turn', t('yourMove')) : mine && g.status === 'active' ? h('span.badge', t('waiting')) : null,
    !mine ? h('a.small', { href: `#/game/${g.id}` }, t('watch')) : null,
  );
}

export function loginView(): View {
  const name = h('input', { name: 'name', autocomplete: 'username', required: true, 'aria-label': t('name'), placeholder: t('name') });
  const pass = h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true, 'aria-label': t('password'), placeholder: t('password') });
  const msg = h('p.error', { role: 'alert' });
  const go = async (kind: 'login' | 'register') => {
    try {
      // The session comes back as an HttpOnly cookie ("cookie": true), not as a token for the page.
      const r = await post<{ user: User }>(kind, { name: name.value.trim(), password: pass.value, cookie: true });
      setLogin(r.user.name, !!r.user.admin);
      app.loggedIn();
    } catch (e) {
      msg.textContent = String((e as Error).message);
    }
  };
  const form = h(
    'form.card.login',
    { onsubmit: (e: Event) => { e.preventDefault(); go('login'); } },
    h('h1', h('span.brand-piece.big', '飛'), ' Hisha'),
    h('p', t('welcome')),
    name,
    pass,
    h('div.row', h('button.primary', { type: 'submit', name: 'login' }, t('login')), h('button', { type: 'button', name: 'register', onclick: () => go('register') }, t('register'))),
    msg,
    guestButton(msg),
    h('p.small', h('a', { href: '#/analysis' }, t('analysis')), ' · ', h('a', { href: '#/analysis/editor' }, t('editor'))),
  );
  return { el: h('div.center', form) };
}

// Runs an action of the lobby and refreshes it, or shows why the action failed.
type Act = (f: () => Promise<unknown>) => Promise<void>;

function challengeItem(c: Challenge, me: string, act: Act): HTMLElement {
  return h(
    'li.challenge',
    { 'data-challenge': c.id },
    h('b', c.challenger),
    ` (${c.challenger_color === 'black' ? '☗' : '☖'}) → ${c.pattern} · ${c.time_control}`,
    c.first_move ? h('span.meta', ` ${c.first_move}`) : null,
    c.comment ? h('span.meta', ` “${c.comment}”`) : null,
    ' ',
    c.challenger === me
      ? h('button.small', { name: 'cancel', onclick: () => act(() => call('DELETE', `challenges/${c.id}`)) }, t('cancel'))
      : h('button.small.primary', { name: 'accept', onclick: () => act(async () => { const g = await post<Game>(`challenges/${c.id}/accept`); location.hash = `#/game/${g.id}`; }) }, t('accept')),
  );
}

function playerRow(u: User, me: string, myRating: number): HTMLElement {
  return h('tr', h('td', h('a', { href: `#/player/${encodeURIComponent(u.name)}` }, u.name), u.bot ? h('span.badge', 'engine') : '', u.online ? h('span.dot', { title: 'online' }) : ''),
    h('td', String(u.rating)), h('td', `${u.wins}/${u.losses}/${u.draws}`),
    h('td.meta', u.name === me ? '' : suggestedHandicap(myRating, u.rating)));
}

// Post a challenge. As Black the first move goes with it (or a handicap removal).
function challengeForm(act: Act): HTMLElement {
  const pattern = h('input', { name: 'pattern', value: '*', 'aria-label': t('opponentPattern') });
  const color = select('color', [['white', t('white')], ['black', t('black')]]);
  const firstMove = h('input', { name: 'first_move', value: '7g7f', 'aria-label': 'first move', size: 8 });
  const handicap = select('handicap', [['', t('even')], ...HANDICAPS.map((x): [string, string] => [x.removal, `${x.name} ${x.ja}`])]);
  const tc = select('time_control', TIME_CONTROLS, '300-10');
  const comment = h('input', { name: 'comment', 'aria-label': t('comment'), placeholder: t('comment') });
  const firstRow = h('label', 'First move ', firstMove, ' ', t('handicap'), ' ', handicap);
  const syncFirst = () => (firstRow.hidden = color.value !== 'black');
  color.onchange = syncFirst;
  syncFirst();
  return h(
    'form.card#new-challenge',
    { onsubmit: (e: Event) => {
      e.preventDefault();
      act(() => post<{ note?: string }>('challenges', {
        pattern: pattern.value.trim() || '*', color: color.value, time_control: tc.value, comment: comment.value,
        first_move: color.value === 'black' ? (handicap.value ? 'HANDICAP:' + handicap.value : firstMove.value.trim()) : '',
      }).then((r) => r.note && toast(r.note))); // (the one challenged is on vacation)
    } },
    h('h2', t('newChallenge')),
    h('label', t('opponentPattern'), ' ', pattern),
    h('label', t('color'), ' ', color),
    firstRow,
    h('label', t('timeControl'), ' ', tc),
    comment,
    h('button.primary', { type: 'submit', name: 'post' }, t('post')),
  );
}

// Play the engine (`bots`, filled by the lobby): a game with a bot starts at once; a handicap
// goes first as Black's move.
function engineForm(bots: HTMLSelectElement, act: Act): HTMLElement {
  const engineColor = select('engine_color', [['black', t('black')], ['white', t('white') + ' — ' + t('engineFirst')]]);
  const engineHandicap = select('engine_handicap', [['', t('even')], ...HANDICAPS.map((x): [string, string] => [x.removal, `${x.name} ${x.ja}`])]);
  const engineTc = select('engine_tc', TIME_CONTROLS, '600-30');
  return h(
    'form.card#play-engine',
    { onsubmit: (e: Event) => {
      e.preventDefault();
      act(async () => {
        const g = await post<Game>('games', { opponent: bots.value, color: engineColor.value, time_control: engineTc.value, handicap: engineHandicap.value });
        location.hash = `#/game/${g.id}`;
      });
    } },
    h('h2', t('playEngine')),
    h('label', t('strength'), ' ', bots),
    h('label', t('color'), ' ', engineColor),
    h('label', t('handicap'), ' ', engineHandicap),
    h('label', t('timeControl'), ' ', engineTc),
    h('button.primary', { type: 'submit', name: 'start-engine' }, t('start')),
  );
}

// Two engines play each other (xshogi's Two Machines); the page watches.
function twoEnginesForm(twoBlack: HTMLSelectElement, twoWhite: HTMLSelectElement, act: Act): HTMLElement {
  return h(
    'form.card#two-engines',
    { onsubmit: (e: Event) => {
      e.preventDefault();
      act(async () => {
        const g = await post<Game>('games', { black: twoBlack.value, white: twoWhite.value, time_control: 'corr-1' });
        location.hash = `#/game/${g.id}`;
      });
    } },
    h('h2', t('twoEngines')),
    h('div.row', h('label', '☗ ', twoBlack), h('label', '☖ ', twoWhite), h('button', { type: 'submit', name: 'start-two' }, t('watch'))),
  );
}

// A message to a player (kept for them when they are away); what was sent goes on `messages`.
function tellForm(messages: HTMLElement, act: Act): HTMLElement {
  const to = h('input', { name: 'to', 'aria-label': t('to'), placeholder: t('to'), size: 10 });
  const text = h('input', { name: 'text', 'aria-label': t('message'), placeholder: t('message') });
  return h(
    'form.row',
    { onsubmit: (e: Event) => {
      e.preventDefault();
      act(async () => {
        const r = await post<{ delivered: boolean }>('tell', { to: to.value.trim(), text: text.value, leave: true });
        messages.prepend(h('li.mine', `→ ${to.value}: ${text.value} `, h('span.meta', r.delivered ? t('delivered') : t('sentOffline'))));
        text.value = '';
      });
    } },
    to, text, h('button', { type: 'submit' }, t('send')),
  );
}

export function lobbyView(): View {
  const me = myName();
  const online = h('ul.plain#online');
  const challenges = h('ul.plain#challenges');
  const myGames = h('ul.plain#my-games');
  const liveGames = h('ul.plain#live-games');
  const messages = h('ul.plain.messages#messages');
  const players = h('tbody');
  const bots = h('select', { name: 'bot', 'aria-label': t('strength') });
  const twoBlack = h('select', { name: 'two_black', 'aria-label': t('black') });
  const twoWhite = h('select', { name: 'two_white', 'aria-label': t('white') });

  // Refreshes overlap (live events, the timer): an answer older than the one shown is dropped.
  let asked = 0;
  let shown = 0;
  let known: Set<number> | undefined; // my games at the last refresh
  async function refresh(): Promise<void> {
    const ask = ++asked;
    try {
      const [lobby, mine, users] = await Promise.all([
        get<{ challenges: Challenge[]; games: Game[]; online: string[] }>('lobby'),
        get<{ user: User; games: Game[] }>('me'),
        get<User[]>('users'),
      ]);
      if (ask < shown) return;
      shown = ask;
      // A game of mine that began while I was here (a challenge of mine was accepted) takes me
      // to it, also when its live event was missed (the socket was reconnecting).
      const begun = mine.games.find((g) => known && !known.has(g.id) && g.status === 'active' && g.plies <= 1);
      known = new Set(mine.games.map((g) => g.id));
      if (begun) {
        location.hash = `#/game/${begun.id}`;
        return;
      }
      clear(online, lobby.online.map((n) => h('li', h('a', { href: `#/player/${encodeURIComponent(n)}` }, n))));
      clear(challenges, lobby.challenges.length ? lobby.challenges.map((c) => challengeItem(c, me, act)) : h('li.meta', t('noChallenges')));
      // Correspondence games waiting for my move first.
      const sorted = [...mine.games].sort((a, b) => {
        const wait = (g: Game) => (g.status === 'active' && g.to_move === (g.black === me ? 'black' : 'white') ? 0 : 1);
        return wait(a) - wait(b) || b.id - a.id;
      });
      clear(myGames, sorted.length ? sorted.map((g) => gameLine(g, me)) : h('li.meta', t('noGames')));
      const others = lobby.games.filter((g) => g.black !== me && g.white !== me);
      clear(liveGames, others.length ? others.map((g) => gameLine(g, me)) : h('li.meta', t('noGames')));
      clear(players, users.map((u) => playerRow(u, me, mine.user.rating)));
      const botList = users.filter((u) => u.bot);
      if (!bots.options.length) {
        for (const sel of [bots, twoBlack, twoWhite]) clear(sel, botList.map((u) => h('option', { value: u.name }, `${u.name} (${u.rating})`)));
        if (botList.length > 1) twoWhite.selectedIndex = 1;
      }
    } catch {
      /* a 401 has logged the page out (api.onSessionEnded); otherwise the next refresh tries again */
    }
  }

  async function act(f: () => Promise<unknown>): Promise<void> {
    try {
      await f();
      await refresh();
    } catch (e) {
      toast(String((e as Error).message), 'error');
    }
  }

  const off = app.live?.on((e) => {
    if (['tell', 'shout', 'chat', 'notice', 'announce'].includes(e.type)) messages.prepend(h('li', e.from ? h('b', e.from + ': ') : null, e.text));
    if (e.type === 'game_started' && e.game) {
      // A game of mine has begun (my challenge was accepted): go to it.
      get<Game>(`games/${e.game}`).then((g) => {
        if ((g.black === me || g.white === me) && g.status === 'active' && g.plies <= 1) location.hash = `#/game/${g.id}`;
      }).catch(() => refresh());
    } else if (['notice', 'game_ended', 'move'].includes(e.type)) refresh();
  });
  const timer = setInterval(refresh, 5000);
  refresh();

  const el = h(
    'div.lobby',
    h('section.col',
      engineForm(bots, act),
      challengeForm(act),
      twoEnginesForm(twoBlack, twoWhite, act)),
    h('section.col',
      yourTurnCard(),
      new VacationCard().el,
      h('div.card', h('h2', t('challenges')), challenges),
      h('div.card', h('h2', t('myGames')), myGames),
      h('div.card', h('h2', t('liveGames')), liveGames)),
    h('section.col',
      h('div.card', h('h2', t('online')), online),
      h('div.card', h('h2', t('messages')), tellForm(messages, act), messages),
      h('div.card', h('h2', t('players')), h('table.players', h('thead', h('tr', h('th', t('name')), h('th', t('rating')), h('th', t('recordStats')), h('th', t('handicapHint')))), players))),
  );
  return { el, dispose: () => { off?.(); clearInterval(timer); } };
}
