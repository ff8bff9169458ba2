// Vacations and adjournments (issue 20). A player on vacation has the clock of each of their
// correspondence games stopped on their turn (a yearly allowance of days; GET/POST/DELETE
// /api/vacation); a game is adjourned when both players agree (POST /api/games/N/adjourn, the
// opponent accepts with the same or declines: /decline) and resumed the same way (/resume), its
// clocks standing still meanwhile. The game page's card, the lobby's vacation card, and the tag a
// game line gets.
import { call, Game, get, post } from './api';
import { clear, h, toast } from './dom';
import { currentLang } from './i18n';

const tr = (en: string, ja: string) => (currentLang() === 'ja' ? ja : en);

export interface Vacation { on: boolean; started: number; until: number; allowance: number; used: number; left: number }

/// A day and time in UTC, as the server counts vacations.
export function utcText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

/// "on vacation until ..." for the player of `side` in `game`, or ''.
export function vacationText(game: Game, side: 'black' | 'white'): string {
  const until = game.vacation?.[side];
  if (!until) return '';
  const name = side === 'black' ? game.black : game.white;
  return tr(`${name} is on vacation until ${utcText(until)}: the clock stands still on ${name}'s turn.`,
    `${name}さんは${utcText(until)}まで休暇中です（手番の時計は止まります）。`);
}

/// The tag of a game in a list: adjourned, or the player to move on vacation.
export function pauseTag(game: Game): HTMLElement | null {
  if (game.adjourned) return h('span.badge.adjourned', tr('adjourned', '指し掛け'));
  const until = game.vacation?.[game.to_move];
  if (!until) return null;
  return h('span.badge.vacation', tr(`on vacation until ${utcText(until).slice(0, 10)}`, `${utcText(until).slice(0, 10)}まで休暇`));
}

/// The card of a player's vacation: the days used and left, start (with the day one is back,
/// optional) and end. `changed` runs after a change.
export class VacationCard {
  readonly el: HTMLElement;
  private state = h('p.vacation-state', { 'aria-live': 'polite' });
  private until = h('input', { type: 'date', name: 'vacation_until', 'aria-label': tr('Back on (UTC, optional)', '復帰日（UTC、任意）') });
  private start = h('button.small', { name: 'vacation-start', onclick: () => this.change('POST') }, tr('Start vacation', '休暇を始める'));
  private end = h('button.small', { name: 'vacation-end', onclick: () => this.change('DELETE') }, tr('End vacation', '休暇を終える'));
  constructor(private changed: () => void = () => {}) {
    this.el = h('div.card.vacation-card',
      h('h3', tr('Vacation', '休暇')),
      h('p.meta', tr('While you are on vacation your correspondence clocks stand still on your turn.',
        '休暇中は、通信対局で自分の手番の時計が止まります。')),
      this.state,
      h('div.row', h('label', tr('Back on', '復帰日'), ' ', this.until), this.start, this.end));
    void this.load();
  }
  private render(v: Vacation): void {
    const days = tr(`${v.used} of ${v.allowance} days used this year, ${v.left} left.`,
      `今年の休暇 ${v.allowance} 日のうち ${v.used} 日使用、残り ${v.left} 日。`);
    this.state.textContent = v.on ? tr(`On vacation until ${utcText(v.until)}. `, `${utcText(v.until)}まで休暇中。`) + days : days;
    this.el.dataset.on = String(v.on);
    this.start.hidden = v.on;
    this.until.hidden = v.on;
    this.end.hidden = !v.on;
  }
  async load(): Promise<void> {
    try {
      this.render(await get<Vacation>('vacation'));
    } catch {
      /* shown again at the next load */
    }
  }
  private async change(method: 'POST' | 'DELETE'): Promise<void> {
    try {
      const body = method === 'POST' && this.until.value ? { until: this.until.value } : method === 'POST' ? {} : undefined;
      this.render(await call<Vacation>(method, 'vacation', body));
      this.changed();
    } catch (e) {
      toast(String((e as Error).message), 'error');
    }
  }
}

/// The game page's card: adjourned or not, the open offer (accept, decline), offer to adjourn
/// or resume, the players' vacations, and (a correspondence game of mine) my vacation.
export class PauseCard {
  readonly el: HTMLElement;
  private state = h('p.pause-state', { 'aria-live': 'polite' });
  private buttons = h('div.row.pause-buttons');
  private vacations = h('div.vacations');
  private vacation?: VacationCard;
  constructor(private id: number, private reload: () => void) {
    this.el = h('div.card.pause-card', { hidden: true }, h('h3', tr('Adjournment', '指し掛け')), this.state, this.buttons, this.vacations);
  }
  private button(name: string, label: string, action: string): HTMLElement {
    return h('button.small', { name, onclick: async () => {
      try {
        const r = await post<{ step: string }>(`games/${this.id}/${action}`, {});
        if (r.step === 'offered') toast(tr('Offer sent.', '提案しました。'));
        this.reload();
      } catch (e) {
        toast(String((e as Error).message), 'error');
      }
    } }, label);
  }
  update(game: Game, mine: 'black' | 'white' | undefined): void {
    const active = game.status === 'active';
    const notes = (['black', 'white'] as const).map((s) => vacationText(game, s)).filter((x) => x);
    clear(this.vacations, notes.map((n) => h('p.vacation-note', n)));
    this.el.hidden = !active || (!mine && !game.adjourned && !notes.length);
    if (!active) return;
    const offer = game.offer;
    const theirs = !!offer && offer.color !== mine;
    let text = game.adjourned ? tr(`Adjourned since ${utcText(game.adjourned_at!)}: the clocks stand still.`, `${utcText(game.adjourned_at!)}から指し掛け中（時計は停止）。`) : '';
    if (offer) text += (text ? ' ' : '') + (offer.kind === 'resume' ? tr(`${offer.by} offers to resume.`, `${offer.by}さんが再開を提案しています。`)
      : tr(`${offer.by} offers to adjourn.`, `${offer.by}さんが指し掛けを提案しています。`));
    this.state.textContent = text;
    const kind = game.adjourned ? 'resume' : 'adjourn';
    clear(this.buttons, !mine ? [] : [
      !offer || theirs ? this.button(kind, theirs ? tr(game.adjourned ? 'Accept: resume' : 'Accept: adjourn', game.adjourned ? '再開に同意' : '指し掛けに同意')
        : game.adjourned ? tr('Offer to resume', '再開を提案') : tr('Offer to adjourn', '指し掛けを提案'), kind) : null,
      theirs ? this.button('decline', tr('Decline', '断る'), 'decline') : null,
    ]);
    const corr = game.time_control.startsWith('corr');
    if (mine && corr && !this.vacation) {
      this.vacation = new VacationCard(this.reload);
      this.el.append(this.vacation.el);
    }
  }
}
