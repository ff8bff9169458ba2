// What the views share with the page (main.ts) without importing it, so that no module imports
// one that imports it back: the view interface, the live socket of a logged-in page, and the
// hook a login form calls.
import type { Live } from './api';

export interface View {
  el: HTMLElement;
  dispose?: () => void;
}

export const app = {
  live: undefined as Live | undefined,
  /** What a login form calls once logged in (the page sets it: start the socket, show the lobby). */
  loggedIn: (): void => {},
};
