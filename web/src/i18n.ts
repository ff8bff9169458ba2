// English and Japanese UI text, each key with its two texts side by side (English first).
// t(key) gives the chosen language's; the choice is kept in localStorage.
const TEXT = {
  lobby: ['Lobby', 'ロビー'], analysis: ['Analysis', '検討'], editor: ['Board editor', '局面編集'], records: ['Records', '棋譜'],
  logout: ['Log out', 'ログアウト'], logoutEverywhere: ['Log out everywhere', 'すべての端末でログアウト'],
  logoutEverywhereHint: ['End every session of this account, on every browser and device', 'このアカウントのすべてのセッション（すべてのブラウザと端末）を終了します'],
  sessionEnded: ['Your session has ended: log in again.', 'セッションが終了しました。もう一度ログインしてください。'], admin: ['Admin', '管理'],
  announcement: ['Announcement', 'お知らせ'], login: ['Log in', 'ログイン'], register: ['Register', '新規登録'],
  name: ['Name', '名前'], password: ['Password', 'パスワード'],
  welcome: ['Play shogi in your browser: against people in real time or by correspondence, or against Hisha’s engine.', 'ブラウザで将棋を。リアルタイム対局、通信対局、飛車エンジンとの対局ができます。'],
  online: ['Online now', 'オンライン'], challenges: ['Open challenges', '対局募集'], myGames: ['My games', '自分の対局'],
  liveGames: ['Live games', '対局中'], messages: ['Messages', 'メッセージ'], players: ['Players', 'プレイヤー'],
  newChallenge: ['Post a challenge', '対局を募集する'], opponentPattern: ['Opponent (name or pattern)', '相手（名前またはパターン）'],
  color: ['I play', '手番'], black: ['Black (sente)', '先手'], white: ['White (gote)', '後手'],
  timeControl: ['Time control', '持ち時間'], comment: ['Comment', 'コメント'], post: ['Post', '募集'],
  accept: ['Accept', '受ける'], cancel: ['Cancel', '取消'], watch: ['Watch', '観戦'], open: ['Open', '開く'],
  send: ['Send', '送信'], to: ['To', '宛先'], message: ['Message', 'メッセージ'], playEngine: ['Play the engine', 'エンジンと対局'],
  strength: ['Strength', '棋力'], start: ['Start', '開始'], handicapHint: ['Suggested handicap', '推奨手合'],
  none: ['none', 'なし'], noChallenges: ['No open challenges.', '募集はありません。'], noGames: ['No games.', '対局はありません。'],
  yourMove: ['your move', 'あなたの手番'], waiting: ['waiting', '相手の手番'], resign: ['Resign', '投了'],
  undo: ['Take back', '待った'], flip: ['Flip board', '盤を反転'], coords: ['Coordinates', '符号'], pieces: ['Pieces', '駒'],
  kanji: ['Kanji', '漢字'], western: ['Western', '西洋式'], notation: ['Notation', '表記'], japanese: ['Japanese', '日本式'],
  moveInput: ['Type a move (7g7f, P-7f, ７六歩, +7776FU)', '指し手を入力（7g7f, P-7f, ７六歩, +7776FU）'], play: ['Play', '指す'],
  say: ['Say', '発言'], sound: ['Sound', '音'], speech: ['Speak moves', '読み上げ'], result: ['Result', '結果'],
  record: ['Record', '棋譜'], download: ['Download', 'ダウンロード'],
  shiftJisFile: ['Shift_JIS, for Japanese desktop programs (Kifu for Windows, ShogiGUI)', 'Shift_JIS (Kifu for Windows・ShogiGUI などのデスクトップソフト用)'],
  utf8File: ['UTF-8', 'UTF-8'], blackWins: ['Black wins', '先手の勝ち'], whiteWins: ['White wins', '後手の勝ち'],
  draw: ['Draw', '引き分け'], by: ['by', '：'], toMove: ['to move', 'の手番'], check: ['Check!', '王手！'],
  analyze: ['Analyze', '検討開始'], stop: ['Stop', '停止'], depth: ['depth', '深さ'], evaluation: ['Evaluation', '評価値'],
  bestLine: ['Best lines', '読み筋'], engineEval: ['The engines’ evaluations', 'エンジンの評価値'],
  mates: ['mates', '詰み'], serverStopping: ['The server is stopping; the page reconnects when it is back.', 'サーバーが停止します。再開すると自動的に再接続します。'],
  loadRecord: ['Load a record (KIF, KI2, CSA, PSN, SFEN): paste or choose a file', '棋譜を読み込む（KIF, KI2, CSA, PSN, SFEN）：貼り付けまたはファイル'],
  load: ['Load', '読込'], saveAs: ['Save as', '保存形式'], first: ['First', '初手'], prev: ['Back', '戻る'],
  next: ['Forward', '進む'], last: ['Last', '最終手'], variations: ['Variations', '変化'], comments: ['Comments', 'コメント'],
  solveTsume: ['Solve as tsume', '詰将棋として解く'], solving: ['Solving…', '解図中…'], mateIn: ['Mate in', '手詰'],
  browserEngine: ['engine in this browser', 'ブラウザ内エンジン'], serverEngine: ['server’s engine', 'サーバーのエンジン'], noMove: ['No legal move', '指し手なし'],
  noMate: ['No mate', '不詰'], timeout: ['No answer in time', '時間切れ'], clear: ['Clear board', '駒を消去'],
  startPos: ['Start position', '平手初期配置'], sideToMove: ['Side to move', '手番'], hands: ['Pieces in hand', '持ち駒'],
  editHint: ['Drag pieces freely, or off the board to remove them. To add one, choose it below and click squares; choosing the promoted kind and clicking a piece of that kind promotes it.', '駒はドラッグで移動、盤外へ出すと削除。下の駒を選んでマスをクリックすると配置、成駒を選んで同じ駒をクリックすると成ります。'],
  usePosition: ['Analyze this position', 'この局面を検討'], multipv: ['Lines', '候補手数'],
  graph: ['Evaluation over the game', '形勢グラフ'], analyzeGame: ['Graph the game', '形勢グラフを作る'], error: ['Error', 'エラー'],
  reconnecting: ['Connection lost, reconnecting…', '接続が切れました。再接続中…'], connected: ['Connected', '接続中'],
  ended: ['Game over', '終局'], moves: ['Moves', '指し手'], tsume: ['Tsume', '詰将棋'], spectate: ['Spectate', '観戦'],
  vs: ['vs', '対'], days: ['days per move', '日／手'], correspondence: ['Correspondence', '通信対局'],
  rating: ['Rating', 'レーティング'], recordStats: ['W/L/D', '勝/敗/分'], engineThinking: ['The engine is thinking…', '思考中…'],
  engine: ['Engine', 'エンジン'], handicap: ['Handicap', '手合'], even: ['Even game', '平手'],
  promote: ['Promote?', '成りますか？'], language: ['日本語', 'English'], flipShort: ['Flip', '反転'],
  engineFirst: ['Engine moves first', 'エンジンが先手'], copySfen: ['SFEN', 'SFEN'], remaining: ['Time', '残り時間'],
  legalMoves: ['legal moves', '合法手'], offline: ['offline', 'オフライン'], tell: ['Tell', '個人宛'], remove: ['Remove', '削除'],
  twoEngines: ['Watch two engines play', 'エンジン同士の対局を観戦'], showSolution: ['Show the solution', '解答を表示'],
  sentOffline: ['left as an offline message', 'オフラインメッセージとして保存'], delivered: ['delivered', '送信済み'],
  ratings: ['Ratings', 'レーティング表'], deviation: ['Deviation', '偏差'], gamesPlayed: ['Games', '対局数'],
  noRatings: ['No rated games yet.', 'レーティング対象の対局はまだありません。'], tournaments: ['Tournaments', '定期大会'],
  noTournaments: ['No scheduled tournaments on this server.', 'このサーバーに定期大会はありません。'],
  rounds: ['Rounds', '回戦数'], nextRound: ['Next round', '次の回戦'], when: ['When', '日時'], inProgress: ['in progress', '対局中'],
  puzzles: ['Puzzles', '詰将棋'], puzzleFind: ['Find the mate: every move gives check.', '王手の連続で詰ませてください。'],
  puzzleMateIn: ['Mate in {n}', '{n}手詰'], puzzleRatingOf: ['puzzle rating', '問題レーティング'],
  puzzleRating: ['Your puzzle rating', 'あなたの詰将棋レーティング'], puzzleNotRated: ['unrated', 'レーティング対象外'],
  puzzleGood: ['Good move: keep going.', '正解です。続けてください。'], puzzleSolved: ['Solved: mate!', '正解！詰みました。'],
  puzzleWrong: ['Wrong', '不正解'], puzzleIllegal: ['that move is illegal.', 'その手は反則です。'],
  puzzleNotCheck: ['every move must give check.', '王手ではありません（すべて王手で）。'],
  puzzleNoMate: ['the defence {move} escapes: no mate in {n} more.', '{move}と受けられて、あと{n}手では詰みません。'],
  puzzleNoMateFound: ['the solver finds no mate after it.', 'その手の後に詰みは見つかりません。'],
  puzzleSolution: ['Solution', '正解手順'], puzzleHint: ['Hint', 'ヒント'], puzzleRetry: ['Try again', 'もう一度'],
  puzzleNext: ['Next puzzle', '次の問題'], puzzleHintPiece: ['Hint: move the piece on {square}.', 'ヒント：{square}の駒を動かします。'],
  puzzleHintDrop: ['Hint: drop a piece from your hand ({piece}).', 'ヒント：持ち駒（{piece}）を打ちます。'],
  puzzleHintMove: ['Hint: {move} (counted as not solved).', 'ヒント：{move}（不正解扱い）'],
} satisfies Record<string, readonly [string, string]>;
type Key = keyof typeof TEXT;

export type Lang = 'en' | 'ja';
let lang: Lang = (localStorage.getItem('hisha.lang') as Lang) || (navigator.language.startsWith('ja') ? 'ja' : 'en');

export function t(key: Key): string {
  return TEXT[key][lang === 'ja' ? 1 : 0];
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
