// English and Japanese UI text. t(key) looks the key up in the chosen language; the choice
// is kept in localStorage.
const EN = {
  lobby: 'Lobby', analysis: 'Analysis', editor: 'Board editor', records: 'Records', logout: 'Log out',
  logoutEverywhere: 'Log out everywhere', logoutEverywhereHint: 'End every session of this account, on every browser and device',
  sessionEnded: 'Your session has ended: log in again.', admin: 'Admin', announcement: 'Announcement',
  login: 'Log in', register: 'Register', name: 'Name', password: 'Password',
  welcome: 'Play shogi in your browser: against people in real time or by correspondence, or against Hisha’s engine.',
  online: 'Online now', challenges: 'Open challenges', myGames: 'My games', liveGames: 'Live games',
  messages: 'Messages', players: 'Players', newChallenge: 'Post a challenge', opponentPattern: 'Opponent (name or pattern)',
  color: 'I play', black: 'Black (sente)', white: 'White (gote)', timeControl: 'Time control', comment: 'Comment',
  post: 'Post', accept: 'Accept', cancel: 'Cancel', watch: 'Watch', open: 'Open', send: 'Send', to: 'To',
  message: 'Message', playEngine: 'Play the engine', strength: 'Strength', start: 'Start',
  handicapHint: 'Suggested handicap', none: 'none', noChallenges: 'No open challenges.', noGames: 'No games.',
  yourMove: 'your move', waiting: 'waiting', resign: 'Resign', undo: 'Take back', flip: 'Flip board',
  coords: 'Coordinates', pieces: 'Pieces', kanji: 'Kanji', western: 'Western', notation: 'Notation',
  japanese: 'Japanese', moveInput: 'Type a move (7g7f, P-7f, ７六歩, +7776FU)', play: 'Play', say: 'Say',
  sound: 'Sound', speech: 'Speak moves', result: 'Result', record: 'Record', download: 'Download',
  shiftJisFile: 'Shift_JIS, for Japanese desktop programs (Kifu for Windows, ShogiGUI)', utf8File: 'UTF-8',
  blackWins: 'Black wins', whiteWins: 'White wins', draw: 'Draw', by: 'by', toMove: 'to move',
  check: 'Check!', analyze: 'Analyze', stop: 'Stop', depth: 'depth', evaluation: 'Evaluation',
  bestLine: 'Best lines', loadRecord: 'Load a record (KIF, KI2, CSA, PSN, SFEN): paste or choose a file',
  load: 'Load', saveAs: 'Save as', first: 'First', prev: 'Back', next: 'Forward', last: 'Last',
  variations: 'Variations', comments: 'Comments', solveTsume: 'Solve as tsume', solving: 'Solving…',
  mateIn: 'Mate in', noMate: 'No mate', timeout: 'No answer in time', clear: 'Clear board', startPos: 'Start position',
  sideToMove: 'Side to move', hands: 'Pieces in hand', editHint: 'Drag pieces freely, or off the board to remove them. To add one, choose it below and click squares; choosing the promoted kind and clicking a piece of that kind promotes it.',
  usePosition: 'Analyze this position', multipv: 'Lines', graph: 'Evaluation over the game', analyzeGame: 'Graph the game',
  error: 'Error', reconnecting: 'Connection lost, reconnecting…', connected: 'Connected', ended: 'Game over',
  moves: 'Moves', tsume: 'Tsume', spectate: 'Spectate', vs: 'vs', days: 'days per move', correspondence: 'Correspondence',
  rating: 'Rating', recordStats: 'W/L/D', engineThinking: 'The engine is thinking…', engine: 'Engine',
  handicap: 'Handicap', even: 'Even game', promote: 'Promote?', language: '日本語', flipShort: 'Flip',
  engineFirst: 'Engine moves first', copySfen: 'SFEN', remaining: 'Time', legalMoves: 'legal moves',
  offline: 'offline', tell: 'Tell', remove: 'Remove', twoEngines: 'Watch two engines play', showSolution: 'Show the solution', sentOffline: 'left as an offline message', delivered: 'delivered',
};
type Key = keyof typeof EN;
const JA: Record<Key, string> = {
  lobby: 'ロビー', analysis: '検討', editor: '局面編集', records: '棋譜', logout: 'ログアウト',
  logoutEverywhere: 'すべての端末でログアウト', logoutEverywhereHint: 'このアカウントのすべてのセッション（すべてのブラウザと端末）を終了します',
  sessionEnded: 'セッションが終了しました。もう一度ログインしてください。', admin: '管理', announcement: 'お知らせ',
  login: 'ログイン', register: '新規登録', name: '名前', password: 'パスワード',
  welcome: 'ブラウザで将棋を。リアルタイム対局、通信対局、飛車エンジンとの対局ができます。',
  online: 'オンライン', challenges: '対局募集', myGames: '自分の対局', liveGames: '対局中',
  messages: 'メッセージ', players: 'プレイヤー', newChallenge: '対局を募集する', opponentPattern: '相手（名前またはパターン）',
  color: '手番', black: '先手', white: '後手', timeControl: '持ち時間', comment: 'コメント',
  post: '募集', accept: '受ける', cancel: '取消', watch: '観戦', open: '開く', send: '送信', to: '宛先',
  message: 'メッセージ', playEngine: 'エンジンと対局', strength: '棋力', start: '開始',
  handicapHint: '推奨手合', none: 'なし', noChallenges: '募集はありません。', noGames: '対局はありません。',
  yourMove: 'あなたの手番', waiting: '相手の手番', resign: '投了', undo: '待った', flip: '盤を反転',
  coords: '符号', pieces: '駒', kanji: '漢字', western: '西洋式', notation: '表記',
  japanese: '日本式', moveInput: '指し手を入力（7g7f, P-7f, ７六歩, +7776FU）', play: '指す', say: '発言',
  sound: '音', speech: '読み上げ', result: '結果', record: '棋譜', download: 'ダウンロード',
  shiftJisFile: 'Shift_JIS (Kifu for Windows・ShogiGUI などのデスクトップソフト用)', utf8File: 'UTF-8',
  blackWins: '先手の勝ち', whiteWins: '後手の勝ち', draw: '引き分け', by: '：', toMove: 'の手番',
  check: '王手！', analyze: '検討開始', stop: '停止', depth: '深さ', evaluation: '評価値',
  bestLine: '読み筋', loadRecord: '棋譜を読み込む（KIF, KI2, CSA, PSN, SFEN）：貼り付けまたはファイル',
  load: '読込', saveAs: '保存形式', first: '初手', prev: '戻る', next: '進む', last: '最終手',
  variations: '変化', comments: 'コメント', solveTsume: '詰将棋として解く', solving: '解図中…',
  mateIn: '手詰', noMate: '不詰', timeout: '時間切れ', clear: '駒を消去', startPos: '平手初期配置',
  sideToMove: '手番', hands: '持ち駒', editHint: '駒はドラッグで移動、盤外へ出すと削除。下の駒を選んでマスをクリックすると配置、成駒を選んで同じ駒をクリックすると成ります。',
  usePosition: 'この局面を検討', multipv: '候補手数', graph: '形勢グラフ', analyzeGame: '形勢グラフを作る',
  error: 'エラー', reconnecting: '接続が切れました。再接続中…', connected: '接続中', ended: '終局',
  moves: '指し手', tsume: '詰将棋', spectate: '観戦', vs: '対', days: '日／手', correspondence: '通信対局',
  rating: 'レーティング', recordStats: '勝/敗/分', engineThinking: '思考中…', engine: 'エンジン',
  handicap: '手合', even: '平手', promote: '成りますか？', language: 'English', flipShort: '反転',
  engineFirst: 'エンジンが先手', copySfen: 'SFEN', remaining: '残り時間', legalMoves: '合法手',
  offline: 'オフライン', tell: '個人宛', remove: '削除', twoEngines: 'エンジン同士の対局を観戦', showSolution: '解答を表示', sentOffline: 'オフラインメッセージとして保存', delivered: '送信済み',
};

export type Lang = 'en' | 'ja';
let lang: Lang = (localStorage.getItem('hisha.lang') as Lang) || (navigator.language.startsWith('ja') ? 'ja' : 'en');

export function t(key: Key): string {
  return (lang === 'ja' ? JA : EN)[key];
}
export function currentLang(): Lang {
  return lang;
}
export function setLang(l: Lang): void {
  lang = l;
  localStorage.setItem('hisha.lang', l);
  document.documentElement.lang = l;
}
document.documentElement.lang = lang;
