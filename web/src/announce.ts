// Screen readers: every move shown on a board (both sides', one ply forward) is said in an ARIA
// live region (polite), in the page's language: "Black P-7f, check" or "▲７六歩 王手"; then
// checkmate, and the end of the game being viewed when the server says it ended. The spellings
// come from the server (POST /api/position: western, ja), so the page holds no notation rules;
// without the server (offline) the move is said as USI.
import { Live, PositionInfo, post } from './api';
import { app } from './app';
import { currentLang } from './i18n';
import { splitSfen } from './board';

const TEXT = {
  black: ['Black', '先手'], white: ['White', '後手'], check: ['check', '王手'], checkmate: ['checkmate', '詰み'],
  blackWins: ['Black wins', '先手の勝ち'], whiteWins: ['White wins', '後手の勝ち'], draw: ['draw', '引き分け'],
  gameOver: ['Game over', '終局'],
} satisfies Record<string, readonly [string, string]>;
const tr = (k: keyof typeof TEXT) => TEXT[k][currentLang() === 'ja' ? 1 : 0];
const sep = () => (currentLang() === 'ja' ? '　' : ', ');

let region: HTMLElement | undefined;
/// The live region (made once, kept outside the views so that it survives a page change).
export function liveRegion(): HTMLElement {
  if (!region || !region.isConnected) {
    region = document.getElementById('move-announcer') ?? undefined;
    if (!region) {
      region = document.createElement('div');
      region.id = 'move-announcer';
      region.className = 'sr-only';
      region.setAttribute('role', 'log');
      region.setAttribute('aria-live', 'polite');
      region.setAttribute('aria-atomic', 'true');
      document.body.appendChild(region);
    }
  }
  return region;
}

export function say(text: string): void {
  liveRegion().textContent = text;
}

// Announcements are made in the order the moves came, though their spellings come back later.
let queue: Promise<void> = Promise.resolve();

async function moveText(before: string, usi: string): Promise<string> {
  const side = splitSfen(before).turn;
  try {
    const p = await post<PositionInfo>('position', { sfen: before, moves: [usi] });
    const m = p.moves[0];
    const ja = currentLang() === 'ja';
    let text = ja ? m.ja : `${tr(side)} ${m.western}`;
    if (p.over === 'checkmate') text += sep() + tr('checkmate') + sep() + tr(side === 'black' ? 'blackWins' : 'whiteWins');
    else if (p.check) text += sep() + tr('check');
    return text;
  } catch {
    return `${tr(side)} ${usi}`;
  }
}

/// A board shows `after` (its last move `last`) where it showed `before`: one ply forward is said.
export function positionShown(before: string | undefined, after: string, last: string | undefined): void {
  if (!before || !last || splitSfen(after).ply !== splitSfen(before).ply + 1) return;
  queue = queue.then(async () => say(await moveText(before, last)));
}

/// The end of the game this page shows (#/game/N), as the live socket tells it.
let listened: Live | undefined;
export function listenForGameEnds(): void {
  if (!app.live || listened === app.live) return;
  listened = app.live;
  app.live.on((e) => {
    if (e.type !== 'game_ended' || location.hash !== `#/game/${e.game}`) return;
    const who = e.winner === 'black' ? tr('blackWins') : e.winner === 'white' ? tr('whiteWins') : tr('draw');
    queue = queue.then(() => say(`${tr('gameOver')}${sep()}${who}${e.reason ? ` (${String(e.reason).replace(/_/g, ' ')})` : ''}`));
  });
}
