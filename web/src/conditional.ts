// Conditional moves on the game page (issue 20): while the opponent is to move, the player
// writes "if he plays X, I reply Y" as a small tree and the server plays the reply for them
// (GET/PUT/DELETE /api/games/N/conditional). The text form, in USI:
//   3c3d 2g2f (8c8d 2f2e) 8c8d 2g2f
// is two branches: after 3c3d reply 2g2f, and then after 8c8d reply 2f2e; after 8c8d reply 2g2f.
import { call, Game, get } from './api';
import { clear, h, toast } from './dom';
import { currentLang } from './i18n';

const tr = (en: string, ja: string) => (currentLang() === 'ja' ? ja : en);

export interface Branch { move: string; reply: string; then?: Branch[] }

export function treeText(bs: Branch[]): string {
  return bs.map((b) => `${b.move} ${b.reply}${b.then?.length ? ` (${treeText(b.then)})` : ''}`).join(' ');
}

/// The text form read into branches; an error names what is wrong.
export function readTree(text: string): Branch[] {
  const words = text.replace(/[()]/g, ' $& ').trim().split(/\s+/).filter(Boolean);
  let at = 0;
  const level = (): Branch[] => {
    const out: Branch[] = [];
    while (at < words.length && words[at] !== ')') {
      const move = words[at++], reply = words[at++];
      if (!reply || move === '(' || reply === '(' || reply === ')') throw new Error(tr(`a reply is missing after ${move}`, `${move} への応手がありません`));
      const b: Branch = { move, reply };
      if (words[at] === '(') {
        ++at;
        b.then = level();
        if (words[at++] !== ')') throw new Error(tr('a ")" is missing', '")" がありません'));
      }
      out.push(b);
    }
    return out;
  };
  const tree = level();
  if (at < words.length) throw new Error(tr('an unmatched ")"', '")" が余っています'));
  return tree;
}

/// The card: the stored tree, an editor, save and clear. update() with each game loaded.
export class ConditionalCard {
  readonly el: HTMLElement;
  private shown = h('p.conditional-tree', { 'aria-live': 'polite' });
  private input = h('input', { name: 'conditional', 'aria-label': tr('Conditional moves', '条件付き指し手'), placeholder: '3c3d 2g2f (8c8d 2f2e)', autocomplete: 'off' });
  private plies = -1;
  constructor(private id: number) {
    this.el = h('div.card.conditional', { hidden: true },
      h('h3', tr('Conditional moves', '条件付き指し手')),
      h('p.meta', tr('If the opponent plays the first move, the server replies with the second for you (USI; a branch\'s own branches in parentheses).',
        '相手が最初の手を指したら、サーバーが次の手を代わりに指します（USI、続きは括弧内）。')),
      this.shown,
      h('div.row', this.input,
        h('button.small', { name: 'save-conditional', onclick: () => this.save() }, tr('Save', '保存')),
        h('button.small', { name: 'clear-conditional', onclick: () => this.save(true) }, tr('Clear', '消去'))));
  }
  /// Shown to a player of an active game while the opponent is to move.
  update(game: Game, mine: 'black' | 'white' | undefined): void {
    const open = !!mine && game.status === 'active';
    this.el.hidden = !open;
    if (!open || game.plies === this.plies) return;
    this.plies = game.plies;
    void this.load();
  }
  private render(tree: Branch[]): void {
    clear(this.shown, tree.length ? h('code', treeText(tree)) : tr('None.', 'なし'));
  }
  private async load(): Promise<void> {
    try {
      const r = await get<{ tree: Branch[] }>(`games/${this.id}/conditional`);
      this.render(r.tree);
    } catch {
      /* shown again at the next load */
    }
  }
  private async save(clearIt = false): Promise<void> {
    try {
      const r = clearIt
        ? await call<{ tree: Branch[] }>('DELETE', `games/${this.id}/conditional`)
        : await call<{ tree: Branch[] }>('PUT', `games/${this.id}/conditional`, { tree: readTree(this.input.value) });
      this.render(r.tree);
      this.input.value = '';
      toast(tr('Conditional moves saved.', '条件付き指し手を保存しました。'), 'info');
    } catch (e) {
      toast(String((e as Error).message), 'error');
    }
  }
}
