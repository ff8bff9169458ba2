// Display settings for everyone: a high-contrast theme, the board's size and the pieces' size,
// kept in localStorage and applied as a class and CSS variables (style.css). The header's
// "Display" button opens them.
import { h } from './dom';
import { currentLang } from './i18n';

const TEXT = {
  display: ['Display', '表示'], contrast: ['High contrast', 'ハイコントラスト'], boardSize: ['Board size', '盤の大きさ'],
  pieceSize: ['Piece size', '駒の大きさ'], small: ['Small', '小'], medium: ['Medium', '中'], large: ['Large', '大'],
  huge: ['Very large', '特大'],
} satisfies Record<string, readonly [string, string]>;
const tr = (k: keyof typeof TEXT) => TEXT[k][currentLang() === 'ja' ? 1 : 0];

const BOARD_PX: Record<string, number> = { small: 380, medium: 540, large: 700, huge: 880 };
const PIECE_SCALE: Record<string, number> = { small: 0.8, medium: 1, large: 1.2, huge: 1.4 };

const stored = (key: string, fallback: string) => localStorage.getItem(`hisha.${key}`) || fallback;

export function applySettings(): void {
  const root = document.documentElement;
  document.body.classList.toggle('high-contrast', stored('contrast', 'off') === 'on');
  const px = BOARD_PX[stored('boardSize', 'medium')] ?? 540;
  root.style.setProperty('--board-w', `min(${px}px, calc(100vw - 40px)${px <= 540 ? ', calc((100vh - 250px) * 0.8)' : ''})`);
  root.style.setProperty('--piece-scale', String(PIECE_SCALE[stored('pieceSize', 'medium')] ?? 1));
}

function sizeSelect(name: string, key: string): HTMLSelectElement {
  const sel = h('select', { name, onchange: () => { localStorage.setItem(`hisha.${key}`, sel.value); applySettings(); } },
    (['small', 'medium', 'large', 'huge'] as const).map((v) => h('option', { value: v, selected: stored(key, 'medium') === v }, tr(v))));
  return sel;
}

/// The header's button and the panel it opens.
export function settingsButton(): HTMLElement {
  const contrast = h('input', { type: 'checkbox', name: 'high-contrast', checked: stored('contrast', 'off') === 'on', onchange: () => {
    localStorage.setItem('hisha.contrast', contrast.checked ? 'on' : 'off');
    applySettings();
  } });
  const panel = h('div.settings-panel', { hidden: true, role: 'group', 'aria-label': tr('display') },
    h('label', contrast, ' ', tr('contrast')),
    h('label', tr('boardSize'), ' ', sizeSelect('board-size', 'boardSize')),
    h('label', tr('pieceSize'), ' ', sizeSelect('piece-size', 'pieceSize')));
  const button = h('button.ghost', { type: 'button', name: 'display', 'aria-expanded': 'false', onclick: () => {
    panel.hidden = !panel.hidden;
    button.setAttribute('aria-expanded', String(!panel.hidden));
  } }, tr('display'));
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { panel.hidden = true; button.setAttribute('aria-expanded', 'false'); button.focus(); }
  });
  return h('span.settings', button, panel);
}
