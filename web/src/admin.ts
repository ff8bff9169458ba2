// The administrators' page (#/admin): who is connected, the queues, the bans and the audit log,
// and the actions (announce, ban and unban, kick, abort or adjudicate a game, reset a password).
// The server checks every request (403 for anyone else) and logs each action in its audit log.
import { ApiError, get, post } from './api';
import { clear, h, toast } from './dom';
import { t } from './i18n';
import { View } from './app';

interface Status {
  connections: { name: string; protocol: string; peer: string; since: number }[];
  status: Record<string, string>;
  bans: { kind: string; target: string; reason: string; by: string; created: number; expires: number }[];
  audit: { at: number; admin: string; action: string; target: string; detail: string; peer: string }[];
}

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16);

function input(name: string, placeholder: string, type = 'text'): HTMLInputElement {
  return h('input', { name, placeholder, 'aria-label': placeholder, type });
}

export function adminView(): View {
  const connections = h('tbody');
  const status = h('tbody');
  const bans = h('tbody');
  const audit = h('tbody');
  const msg = h('p.error#admin-error', { role: 'alert' });

  async function refresh(): Promise<void> {
    try {
      const s = await get<Status>('admin/status');
      msg.textContent = '';
      clear(connections, s.connections.map((c) => h('tr', h('td', c.name), h('td', c.protocol), h('td', c.peer), h('td', when(c.since)))));
      clear(status, Object.entries(s.status).map(([k, v]) => h('tr', h('td', k), h('td', v))));
      clear(
        bans,
        s.bans.map((b) =>
          h('tr', { 'data-ban': `${b.kind} ${b.target}` },
            h('td', b.kind), h('td', b.target), h('td', b.expires ? when(b.expires) : '∞'), h('td', b.by), h('td', b.reason),
            h('td', h('button.small', { name: 'unban', onclick: () => act('admin/unban', { kind: b.kind, target: b.target }) }, 'Lift'))),
        ),
      );
      clear(audit, s.audit.map((a) => h('tr', h('td', when(a.at)), h('td', a.admin), h('td', a.action), h('td', a.target), h('td', a.detail))));
    } catch (e) {
      msg.textContent = String((e as Error).message);
    }
  }

  /// An action: the server's answer as a notice, then the lists again.
  async function act(path: string, body: Record<string, unknown>, done?: () => void): Promise<void> {
    try {
      await post(path, body);
      msg.textContent = '';
      toast(`${path.replace('admin/', '')}: ok`);
      done?.();
    } catch (e) {
      msg.textContent = e instanceof ApiError ? e.message : String(e);
    }
    await refresh();
  }

  const form = (cls: string, title: string, fields: HTMLElement[], button: string, submit: () => void) =>
    h(`form.card.${cls}` as 'form', { onsubmit: (e: Event) => { e.preventDefault(); submit(); } },
      h('h3', title), h('div.row', fields, h('button.primary', { type: 'submit', name: button }, button)));

  const announceText = input('text', 'Message to everyone connected');
  const banKind = h('select', { name: 'kind', 'aria-label': 'kind' }, h('option', { value: 'user' }, 'account'), h('option', { value: 'address' }, 'address'));
  const banTarget = input('target', 'Name, or address (203.0.113.7, 203.0.113.0/24)');
  const banFor = input('duration', 'For (30m, 12h, 7d; empty: until lifted)');
  const banReason = input('reason', 'Reason');
  const kickName = input('name', 'Name');
  const kickReason = input('reason', 'Reason');
  const gameId = input('game', 'Game number', 'number');
  const gameAction = h('select', { name: 'action', 'aria-label': 'action' },
    h('option', { value: 'abort' }, 'abort (no result)'), h('option', { value: 'black' }, 'Black wins'),
    h('option', { value: 'white' }, 'White wins'), h('option', { value: 'draw' }, 'draw'));
  const gameReason = input('reason', 'Reason');
  const resetName = input('name', 'Name');
  const resetPassword = input('password', 'New password', 'password');

  const el = h(
    'div.admin',
    h('section.col',
      h('h1', t('admin')),
      msg,
      form('admin-announce', 'Announce', [announceText], 'announce', () => act('admin/announce', { text: announceText.value }, () => (announceText.value = ''))),
      form('admin-ban', 'Ban', [banKind, banTarget, banFor, banReason], 'ban', () =>
        act('admin/ban', { kind: banKind.value, target: banTarget.value.trim(), duration: banFor.value.trim(), reason: banReason.value })),
      form('admin-kick', 'Kick', [kickName, kickReason], 'kick', () => act('admin/kick', { name: kickName.value.trim(), reason: kickReason.value })),
      form('admin-game', 'End a game', [gameId, gameAction, gameReason], 'end', () =>
        gameAction.value === 'abort'
          ? act(`admin/games/${Number(gameId.value)}/abort`, { reason: gameReason.value })
          : act(`admin/games/${Number(gameId.value)}/adjudicate`, { winner: gameAction.value, reason: gameReason.value })),
      form('admin-reset', 'Reset a password', [resetName, resetPassword], 'reset', () =>
        act('admin/reset-password', { name: resetName.value.trim(), password: resetPassword.value }, () => (resetPassword.value = '')))),
    h('section.col',
      h('div.card', h('h2', 'Connections'), h('table.admin-connections', h('thead', h('tr', h('th', 'name'), h('th', 'via'), h('th', 'address'), h('th', 'since'))), connections)),
      h('div.card', h('h2', 'Queues'), h('table.admin-status', status)),
      h('div.card', h('h2', 'Bans'), h('table.admin-bans', h('thead', h('tr', h('th', 'kind'), h('th', 'target'), h('th', 'until'), h('th', 'by'), h('th', 'reason'), h('th', ''))), bans)),
      h('div.card', h('h2', 'Audit log'), h('table.admin-audit', h('thead', h('tr', h('th', 'when (UTC)'), h('th', 'admin'), h('th', 'action'), h('th', 'target'), h('th', 'detail'))), audit))),
  );
  const timer = setInterval(refresh, 5000);
  void refresh();
  return { el, dispose: () => clearInterval(timer) };
}
