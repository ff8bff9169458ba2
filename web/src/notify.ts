// "Your turn" across all of a player's games (issue 20): the games where it is the player's
// move (correspondence and real-time), a title badge "(N) Hisha", and, when the opponent moves
// in any of them, a sound and a browser notification (the permission is asked from a button,
// never on load). Fed by the live socket's move events and GET /api/me.
import { Game, Live, get, myName } from './api';
import { clear, h } from './dom';
import { currentLang } from './i18n';
import { prefs } from './sound';

const tr = (en: string, ja: string) => (currentLang() === 'ja' ? ja : en);

let myTurn: Game[] = [];
const listeners = new Set<() => void>();
let baseTitle = '';

function mySide(g: Game, me: string): 'black' | 'white' | undefined {
  return g.black === me ? 'black' : g.white === me ? 'white' : undefined;
}

function showBadge(): void {
  baseTitle = baseTitle || document.title.replace(/^\(\d+\) /, '');
  document.title = myTurn.length ? `(${myTurn.length}) ${baseTitle}` : baseTitle;
}

async function refresh(): Promise<void> {
  const me = myName();
  if (!me) return;
  try {
    const mine = await get<{ games: Game[] }>('me');
    myTurn = mine.games.filter((g) => g.status === 'active' && g.to_move === mySide(g, me));
  } catch {
    return; // (the next event or the timer tries again)
  }
  showBadge();
  for (const l of listeners) l();
}

function turnSound(): void {
  if (!prefs.sound) return;
  try {
    const ctx = new AudioContext();
    for (const [start, freq] of [[0, 523], [0.12, 784]] as const) {
      const osc = ctx.createOscillator();
      const g = ctx.createGain();
      osc.frequency.value = freq;
      g.gain.setValueAtTime(0.2, ctx.currentTime + start);
      g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + 0.25);
      osc.connect(g).connect(ctx.destination);
      osc.start(ctx.currentTime + start);
      osc.stop(ctx.currentTime + start + 0.25);
    }
  } catch {
    /* no audio device */
  }
}

/// The opponent moved in game `id`: a sound and a notification (one per game: a newer one replaces it).
async function yourTurn(id: number, by: string, move: string): Promise<void> {
  await refresh();
  if (!myTurn.some((g) => g.id === id)) return; // (an engine that plays both sides, a game over)
  // Looking at that game already: its page has its own move sound.
  if (document.visibilityState === 'visible' && location.hash === `#/game/${id}`) return;
  turnSound();
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  const n = new Notification(tr(`Your move in game #${id}`, `#${id} あなたの手番です`), {
    body: `${by}: ${move}`,
    tag: `hisha-game-${id}`,
  });
  n.onclick = () => {
    window.focus();
    location.hash = `#/game/${id}`;
  };
}

/// Follows the player's games on `live`; returns what stops it.
export function startNotify(live: Live): () => void {
  const me = myName();
  const off = live.on((e) => {
    if (e.type === 'move' && e.by && e.by !== me) void yourTurn(Number(e.game), String(e.by), String(e.western || e.usi || ''));
    else if (['move', 'undo', 'game_started', 'game_ended'].includes(e.type)) void refresh();
  });
  const offStatus = live.onStatus((up) => up && void refresh());
  const timer = setInterval(refresh, 60000);
  void refresh();
  return () => {
    off();
    offStatus();
    clearInterval(timer);
    myTurn = [];
    showBadge();
  };
}

/// The lobby's card: the games waiting for my move, and the button that asks to notify.
export function yourTurnCard(): HTMLElement {
  const list = h('ul.plain#your-turn');
  const ask = h('button.small', { name: 'notify', onclick: async () => {
    await Notification.requestPermission();
    render();
  } }, tr('Notify me when it is my turn', '手番になったら通知する'));
  const render = () => {
    const me = myName();
    clear(list, myTurn.length
      ? myTurn.map((g) => h('li', { 'data-game': g.id }, h('a', { href: `#/game/${g.id}` }, `#${g.id} ${mySide(g, me) === 'black' ? g.white : g.black}`),
          h('span.meta', ` ${g.time_control} · ${g.plies}`)))
      : h('li.meta', tr('No game waits for your move.', '手番の対局はありません。')));
    ask.hidden = !('Notification' in window) || Notification.permission !== 'default';
  };
  const card = h('div.card.your-turn', h('h2', tr('Your turn', 'あなたの手番')), list, ask);
  listeners.add(render);
  render();
  void refresh();
  // (The lobby's card leaves with the lobby: its listener with it, at the next render that finds it gone.)
  const prune = () => {
    if (card.isConnected) return;
    listeners.delete(render);
    listeners.delete(prune);
  };
  listeners.add(prune);
  return card;
}
