// A tiny element builder: h('button.primary', {onclick}, 'text', child...).
type Attrs = Record<string, unknown>;
type Child = Node | string | number | null | undefined | false | Child[];

export function h<K extends keyof HTMLElementTagNameMap>(spec: K | `${K}.${string}` | `${K}#${string}`, attrs?: Attrs | Child, ...children: Child[]): HTMLElementTagNameMap[K] {
  const tag = spec.match(/^[a-z0-9-]+/)![0];
  const el = document.createElement(tag) as HTMLElementTagNameMap[K];
  const classes: string[] = [];
  for (const [, kind, name] of spec.slice(tag.length).matchAll(/([.#])([^.#]+)/g)) {
    if (kind === '#') el.id = name;
    else classes.push(name);
  }
  if (classes.length) el.className = classes.join(' ');
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs as Child);
  } else if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') (el as any)[k] = v;
      else if (k === 'class') el.classList.add(...String(v).split(/\s+/).filter(Boolean));
      else if (k === 'value' || k === 'checked' || k === 'selected') (el as any)[k] = v;
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

function append(el: HTMLElement, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

export function clear(el: HTMLElement, ...children: Child[]): void {
  el.textContent = '';
  append(el, children);
}

export function fmtClock(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  const hh = Math.floor(m / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return hh ? `${hh}:${pad(m % 60)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

export function toast(text: string, kind: 'error' | 'info' = 'info'): void {
  const el = h('div.toast', { role: 'status' }, text);
  el.classList.add(kind);
  document.body.append(el);
  setTimeout(() => el.remove(), kind === 'error' ? 6000 : 3000);
}
