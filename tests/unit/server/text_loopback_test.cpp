// The text protocol over real sockets on 127.0.0.1 against a hisha-server process with a
// real SQLite file: the 003 commands, malformed input, a move in someone else's game, and a
// correspondence game played to mate across a server restart.
#include <gtest/gtest.h>

#include <regex>

#include "server_process.h"
#include "test_util.h"
#include "text_session.h"

using namespace hisha::server::test;

TEST(TextLoopback, MalformedInputIsAnsweredAndTheConnectionKept) {
    ServerProcess srv(temp_db("text_malformed"));
    LineClient c(srv.ports.at("text"));
    c.read_until("hisha> ");
    EXPECT_TRUE(has(c.cmd("BOARD"), "please LOGIN"));
    EXPECT_TRUE(has(c.cmd("XYZZY"), "Error: unknown command"));
    EXPECT_TRUE(has(c.cmd("LOGIN nobody secret"), "Error: incorrect name or password"));
    c.send_raw(std::string("\xff\xfb\x01\xff\xfd\x03", 6));  // telnet negotiation is ignored
    EXPECT_TRUE(has(c.cmd("REGISTER alice secret"), "Welcome, alice"));
    EXPECT_TRUE(has(c.cmd(std::string("\x01\x02garbage\x7f")), "Error: unknown command"));
    EXPECT_TRUE(has(c.cmd("PLAY P-7f"), "Error: no current game"));
    EXPECT_TRUE(has(c.cmd("NEW * P-7e"), "Error:"));
    EXPECT_TRUE(has(c.cmd("NEW <abc P-7f"), "Error:"));
    EXPECT_TRUE(has(c.cmd("REMOVE x"), "Error: usage"));
    EXPECT_TRUE(has(c.cmd("B 999"), "Error: no such game"));
    EXPECT_TRUE(has(c.cmd("SET KANJI 9"), "Error:"));
    c.send_line(std::string(10000, 'A'));
    EXPECT_TRUE(has(c.read_until("hisha> "), "Error: line too long"));
    EXPECT_TRUE(has(c.cmd("WHO"), "alice"));  // still connected
    EXPECT_TRUE(has(c.cmd("SHELL ls"), "not offered"));
    EXPECT_TRUE(has(c.cmd("!ls"), "not offered"));
    c.send_line("QUIT");
    EXPECT_TRUE(has(c.read_until("Bye."), "Bye."));
    EXPECT_TRUE(c.closed_by_peer());
}

TEST(TextLoopback, HelpPatternsAndTheMorePrompt) {
    ServerProcess srv(temp_db("text_help"));
    LineClient c(srv.ports.at("text"));
    c.read_until("hisha> ");
    EXPECT_TRUE(has(c.cmd("HELP -n"), "B, BOARD or REFRESH"));
    std::string gen = c.cmd("HELP -n GENERAL");
    EXPECT_TRUE(has(gen, "GOLD GENERAL") && has(gen, "SILVER GENERAL")) << gen;
    EXPECT_TRUE(has(c.cmd("? -n U"), "Usage: UNDO [-o]"));
    EXPECT_TRUE(has(c.cmd("HELP -n +B"), "PROMOTED BISHOP"));
    EXPECT_TRUE(has(c.cmd("PATTERNS"), "<^0123456789>"));
    std::string first = c.cmd("HELP RULES", "(p,o,y/<space>,<enter>,q/n) ");
    EXPECT_TRUE(has(first, "-- More --"));
    std::string one = c.cmd("", "(p,o,y/<space>,<enter>,q/n) ");  // <enter>: one line more
    EXPECT_LT(std::count(one.begin(), one.end(), '\n'), 3);
    EXPECT_TRUE(has(c.cmd("y", "(p,o,y/<space>,<enter>,q/n) "), "-- More --"));
    EXPECT_TRUE(has(c.cmd("q"), "hisha> "));
    EXPECT_TRUE(has(c.cmd("HELP -n NOSUCHTOPIC"), "Error: no help"));
    // The command list fits one screen with its last line (no More prompt to hide just that).
    std::string list = c.cmd("HELP");
    EXPECT_TRUE(has(list, "QUIT, EXIT or BYE") && !has(list, "-- More --")) << list;
    // A line that answers no prompt ends it and runs as a command.
    EXPECT_TRUE(has(c.cmd("HELP RULES", "(p,o,y/<space>,<enter>,q/n) "), "-- More --"));
    std::string ran = c.cmd("WHO");
    EXPECT_TRUE(has(ran, "alice") || has(ran, "Name")) << ran;
    EXPECT_FALSE(has(ran, "Answer p, o")) << ran;
    EXPECT_TRUE(has(c.cmd("HELP -n *"), "COMMAND-LIST"));
}

// Where Hisha's server does otherwise than Shoogi Server did, its help says what it does.
TEST(TextLoopback, HelpSaysWhatTheServerDoes) {
    ServerProcess srv(temp_db("text_help_truth"));
    auto c = text_login(srv, "alice");
    std::string rep = c->cmd("HELP -n REPETITION");
    EXPECT_TRUE(has(rep, "draw (sennichite)")) << rep;
    EXPECT_FALSE(has(rep, "no any repetition checking")) << rep;
    std::string kanji = c->cmd("HELP -n SET KANJI");
    EXPECT_TRUE(has(kanji, "0 is UTF-8")) << kanji;
    EXPECT_TRUE(has(c->cmd("SET KANJI 1"), "Error:"));  // the help no longer offers JIS
    EXPECT_TRUE(has(c->cmd("SET KANJI 3"), "KANJI set to 3"));
    EXPECT_TRUE(has(c->cmd("SET KANJI 0"), "KANJI set to 0"));
    std::string threat = c->cmd("HELP -n SET THREATENED");
    EXPECT_TRUE(has(threat, "ANSI escape sequences")) << threat;
    EXPECT_FALSE(has(threat, "COLOURS DON'T WORK")) << threat;
    EXPECT_TRUE(has(c->cmd("SET THREATENED U"), "THREATENED set to U"));
    EXPECT_TRUE(has(c->cmd("NEW * P-7f"), "Challenge 1 added"));
    auto bob = text_login(srv, "bob");
    EXPECT_TRUE(has(bob->cmd("N 1"), "game 1"));
    c->read_until("accepted challenge 1");
    c->read_until("hisha> ");
    std::string board = c->cmd("B 1");
    EXPECT_TRUE(has(board, "\x1b[")) << "threatened pieces are marked with an escape sequence:\n" << board;
}

TEST(TextLoopback, ChallengesUndoMessagesAndOtherPeoplesGames) {
    auto [srv, alice, bob] = TwoPlayers(temp_db("text_game"));
    auto carol = text_login(srv, "carol");
    EXPECT_TRUE(has(alice->cmd("NEW !carol P-7f Not for carol!"), "Challenge 1 added"));
    EXPECT_TRUE(has(carol->cmd("NEW"), "No new games"));
    EXPECT_TRUE(has(carol->cmd("N 1"), "Error: challenge 1 is not open to you"));
    EXPECT_TRUE(has(bob->cmd("N"), "Not for carol!"));
    EXPECT_TRUE(has(bob->cmd("N 1"), "You accepted challenge 1: game 1"));
    EXPECT_TRUE(has(alice->read_until("hisha> "), "bob accepted challenge 1"));

    // carol may look, but not move.
    EXPECT_TRUE(has(carol->cmd("B 1"), ": P: P:  : P:"));
    EXPECT_TRUE(has(carol->cmd("PLAY P-3d"), "Error: game 1 is not yours"));
    EXPECT_TRUE(has(carol->cmd("U -o"), "Error: game 1 is not yours"));

    // The forced first move cannot be undone, whoever has seen it.
    EXPECT_TRUE(has(bob->cmd("U -o"), "Error: the first move forced with NEW cannot be undone"));
    alice->cmd("B 1");  // the current game
    EXPECT_TRUE(has(alice->cmd("U"), "Error: the first move forced with NEW cannot be undone"));
    // A move whose notice reached the opponent has been seen, even with the game not loaded.
    EXPECT_TRUE(has(play(*bob, "P-3d"), "you played P-3d"));
    EXPECT_TRUE(has(alice->read_until("hisha> "), "bob played P-3d"));  // alice's game is not loaded
    EXPECT_TRUE(has(bob->cmd("U"), "Error: your opponent has already seen your move"));
    // alice takes it back for him; played again, it is locked against any undo.
    EXPECT_TRUE(has(alice->cmd("U -o"), "the last move was taken back"));
    EXPECT_TRUE(has(bob->read_until("took back"), "alice"));
    EXPECT_TRUE(has(play(*bob, "P-3d"), "you played P-3d"));
    alice->read_until("bob played P-3d");
    alice->drain();
    EXPECT_TRUE(has(alice->cmd("U -o"), "Error: that move was played again after an undo"));
    EXPECT_TRUE(has(alice->cmd("B 1"), "Black (alice) to move."));
    EXPECT_TRUE(has(alice->cmd("PLAY K-5e"), "Error:"));
    std::string q = alice->cmd("PLAY Bx2b", "(y/n) ");
    EXPECT_TRUE(has(q, "Promote?")) << q;
    q = alice->cmd("y", "<p,o,n,y> ");
    EXPECT_TRUE(has(q, "Bx2b+")) << q;
    EXPECT_TRUE(has(alice->cmd("p", "<p,o,n,y> "), ":+B:"));
    EXPECT_TRUE(has(alice->cmd("n"), "Move not made."));
    // The Western marks answer the question too: + promotes, = does not.
    EXPECT_TRUE(has(alice->cmd("PLAY Bx2b", "(y/n) "), "Promote?"));
    EXPECT_TRUE(has(alice->cmd("+", "<p,o,n,y> "), "Bx2b+"));
    EXPECT_TRUE(has(alice->cmd("n"), "Move not made."));
    EXPECT_TRUE(has(alice->cmd("PLAY Bx2b", "(y/n) "), "Promote?"));
    q = alice->cmd("=", "<p,o,n,y> ");
    EXPECT_TRUE(has(q, "Bx2b") && !has(q, "Bx2b+")) << q;
    // A command typed at the question ends it (the move is not made) and runs.
    q = alice->cmd("B 1");
    EXPECT_TRUE(has(q, "Move not made.") && has(q, "Black (alice) to move.")) << q;
    EXPECT_TRUE(has(alice->cmd("PLAY Bx2b", "(y/n) "), "Promote?"));
    q = alice->cmd("WHO");
    EXPECT_TRUE(has(q, "Move not made.") && has(q, "carol")) << q;

    // SAY, TELL with `.`, SHOUT, and TELL to somebody offline left as a message.
    EXPECT_TRUE(has(alice->cmd("SAY You will be mated in 5 moves!"), "Told bob"));
    EXPECT_TRUE(has(bob->read_until("5 moves!"), "alice says (game 1): You will be mated in 5 moves!"));
    bob->drain();
    EXPECT_TRUE(has(alice->cmd("TELL carol hello"), "Told carol"));
    EXPECT_TRUE(has(alice->cmd(".again"), "Told carol"));
    std::string cm = carol->read_until("again");
    EXPECT_TRUE(has(cm, "alice tells you: hello"));
    carol->drain();
    EXPECT_TRUE(has(alice->cmd("SHOUT Good evening!"), "hisha> "));
    EXPECT_TRUE(has(bob->read_until("Good evening!"), "alice shouts"));
    alice->drain();
    auto dave = text_login(srv, "dave");
    text_quit(dave);
    EXPECT_TRUE(has(alice->cmd("TELL dave There's a bug in the command xxx.", "(yes/no) "), "not online"));
    EXPECT_TRUE(has(alice->cmd("yes"), "Message left for dave"));
    std::string welcome;
    auto dave2 = text_login(srv, "dave", false, &welcome);
    EXPECT_TRUE(has(welcome, "From alice")) << welcome;
    EXPECT_TRUE(has(welcome, "There's a bug in the command xxx."));
    text_quit(dave2);
    auto dave3 = text_login(srv, "dave", false);  // the message was deleted once seen

    EXPECT_TRUE(has(alice->cmd("W"), "carol"));
    EXPECT_TRUE(has(alice->cmd("USER *"), "bob"));
    EXPECT_TRUE(has(alice->cmd("STAT"), "bob"));
    EXPECT_TRUE(has(alice->cmd("G"), "alice"));
    EXPECT_TRUE(has(alice->cmd("SET BSTYLE 2"), "BSTYLE set to 2"));
    EXPECT_TRUE(has(alice->cmd("B"), "歩"));
    EXPECT_TRUE(has(alice->cmd("SET BLACK ?"), "REV"));
}

TEST(TextLoopback, CorrespondenceGamePlayedToMateAcrossARestart) {
    std::string db = temp_db("text_restart");
    auto [srv, alice, bob] = TwoPlayers(db);
    start_game_as_white(*alice, *bob, "bob");  // bob is Black
    EXPECT_TRUE(has(alice->cmd("B 1"), "Black (bob) to move"));
    play_move(*bob, *alice, "P-7f");
    play_move(*alice, *bob, "G4a-4b", "G-4b");
    EXPECT_TRUE(has(play(*bob, "Bx3c+"), "you played Bx3c+"));

    srv.restart();  // same SQLite file
    alice = text_login(srv, "alice", false);
    bob = text_login(srv, "bob", false);
    // Back after the restart, the open game is the current one: BOARD alone shows it.
    EXPECT_TRUE(has(alice->cmd("B"), "White (alice) to move"));
    EXPECT_TRUE(has(alice->cmd("B 1"), "White (alice) to move"));
    EXPECT_TRUE(has(bob->cmd("B 1"), "3 moves"));
    play_move(*alice, *bob, "G-7b");
    play_move(*bob, *alice, "+Bx4b");
    play_move(*alice, *bob, "K-6a");
    std::string mate = play(*bob, "G*5b");
    EXPECT_TRUE(has(mate, "White's king is checked by 5b.")) << mate;
    EXPECT_TRUE(has(mate, "Game over: Black wins by checkmate")) << mate;
    EXPECT_TRUE(has(alice->read_until("is over"), "Game 1"));
    alice->drain();
    EXPECT_TRUE(has(alice->cmd("U -o"), "Error:"));
    std::string moves = alice->cmd("M -n 1");
    EXPECT_TRUE(has(moves, "7. G*5b")) << moves;
    EXPECT_TRUE(has(moves, "Black wins by checkmate"));

    srv.restart();
    bob = text_login(srv, "bob", false);
    std::string user = bob->cmd("USER bob");
    EXPECT_TRUE(has(user, "bob")) << user;
    EXPECT_TRUE(has(bob->cmd("B 1"), "Game over: Black wins by checkmate"));
}

TEST(TextLoopback, EngineBotsAcceptChallengesAndReply) {
    ServerProcess srv(temp_db("text_bot"));
    auto alice = text_login(srv, "alice");
    EXPECT_TRUE(has(alice->cmd("USER hisha-*"), "bot skill 5"));
    EXPECT_TRUE(has(alice->cmd("NEW hisha-10kyu P-7f"), "Challenge 1 added"));
    std::string started = alice->read_until("accepted challenge 1");
    EXPECT_TRUE(has(started, "hisha-10kyu")) << started;
    std::string reply = alice->read_until("hisha-10kyu played", 10000);
    EXPECT_TRUE(has(reply, "Game 1")) << reply;
    alice->drain();
    EXPECT_TRUE(has(alice->cmd("B 1"), "Black (alice) to move"));
    EXPECT_TRUE(has(play(*alice, "P-2f"), "you played P-2f"));
    EXPECT_TRUE(has(alice->read_until("hisha-10kyu played", 10000), "Game 1"));
}

// SET BSTYLE 2 draws kanji; SET KANJI 0/2/3 sends them as UTF-8, EUC-JP or Shift_JIS (bytes
// checked); SET PSTYLE names the checked king in romaji or kanji.
TEST(TextLoopback, KanjiBoardsInEachEncodingAndPieceNameStyles) {
    auto [srv, alice, bob] = TwoPlayers(temp_db("text_kanji"));
    start_game_as_white(*alice, *bob, "bob");  // bob is Black
    EXPECT_TRUE(has(alice->cmd("SET BSTYLE 2"), "BSTYLE set to 2"));
    const std::string pawn_utf8 = "\xe6\xad\xa9", pawn_euc = "\xca\xe2", pawn_sjis = "\x95\xe0";
    std::string board = alice->cmd("B 1");
    EXPECT_TRUE(has(board, pawn_utf8)) << board;
    alice->cmd("SET KANJI 2");
    board = alice->cmd("B 1");
    EXPECT_TRUE(has(board, pawn_euc));
    EXPECT_FALSE(has(board, pawn_utf8));
    alice->cmd("SET KANJI 3");
    board = alice->cmd("B 1");
    EXPECT_TRUE(has(board, pawn_sjis));
    EXPECT_FALSE(has(board, pawn_utf8));
    EXPECT_TRUE(has(alice->cmd("SET KANJI 1"), "Error:"));  // JIS is refused, the setting kept
    EXPECT_TRUE(has(alice->cmd("B 1"), pawn_sjis));

    // The check notice: Shift_JIS kanji long for alice, romaji short for bob.
    alice->cmd("SET PSTYLE 3");
    EXPECT_TRUE(has(bob->cmd("SET PSTYLE 2"), "PSTYLE set to 2"));
    EXPECT_TRUE(has(bob->cmd("B 1"), "Black (bob) to move"));
    EXPECT_TRUE(has(alice->cmd("B 1"), "1"));
    const char* moves[][2] = {{"b", "P-7f"}, {"a", "G4a-4b"}, {"b", "Bx3c+"},
                              {"a", "G-7b"}, {"b", "+Bx4b"},  {"a", "K-6a"}};
    for (auto& [who, move] : moves) {
        LineClient& c = *(who[0] == 'a' ? alice : bob);
        EXPECT_TRUE(has(play(c, move), "you played")) << move;
        alice->drain();
        bob->drain();
    }
    std::string mate = play(*bob, "G*5b");
    EXPECT_TRUE(has(mate, "White's Oo is checked by 5b.")) << mate;
    const std::string king_long_sjis = "\x89\xa4\x8f\xab";  // 王将
    std::string seen = alice->read_until("checked by 5b.");
    EXPECT_TRUE(has(seen, "White's " + king_long_sjis + " is checked by 5b.")) << seen;
    alice->drain();
    EXPECT_TRUE(has(alice->cmd("SET PSTYLE 9"), "Error:"));
}

// UNDO of one's own move the opponent has not seen (offline), played again and taken back
// again: only a move the opponent undid is locked once replayed.
TEST(TextLoopback, AnUnseenMoveMayBeTakenBackAgainAfterBeingReplayed) {
    auto [srv, alice, bob] = TwoPlayers(temp_db("text_undo_unseen"));
    start_game_as_white(*alice, *bob, "bob");  // bob is Black
    text_quit(alice);
    EXPECT_TRUE(has(play(*bob, "P-7f"), "you played P-7f"));
    EXPECT_TRUE(has(bob->cmd("U"), "the last move was taken back"));
    EXPECT_TRUE(has(play(*bob, "P-7f"), "you played P-7f"));
    EXPECT_TRUE(has(bob->cmd("U"), "the last move was taken back"));
    EXPECT_TRUE(has(play(*bob, "P-2f"), "you played P-2f"));
    alice = text_login(srv, "alice", false);
    EXPECT_TRUE(has(alice->cmd("B"), "White (alice) to move"));
    EXPECT_TRUE(has(bob->cmd("U"), "Error: your opponent has already seen your move"));
}

// A real-time game from the text protocol: NEW ... TIME, clocks in BOARD and GAMES, moves
// played without the confirmation question (it would spend the mover's clock).
TEST(TextLoopback, RealTimeGameFromTheTextProtocol) {
    auto [srv, alice, bob] = TwoPlayers(temp_db("text_realtime"));
    EXPECT_TRUE(has(alice->cmd("NEW bob P-7f TIME nonsense"), "Error: usage: NEW ... TIME"));
    std::string posted = alice->cmd("NEW bob P-7f TIME 10+30 a quick one");
    EXPECT_TRUE(has(posted, "Challenge 1 added: you play Black, open to bob, 600-30.")) << posted;
    std::string listed = bob->cmd("NEW");
    EXPECT_TRUE(has(listed, "600-30") && has(listed, "a quick one")) << listed;
    std::string accepted = bob->cmd("N 1");
    EXPECT_TRUE(has(accepted, "Clocks: Black ") && has(accepted, "(then 30 s a move)")) << accepted;
    alice->read_until("accepted challenge 1");
    alice->drain();
    std::string played = bob->cmd("PLAY P-3d");  // no <p,o,n,y> question on a clock
    EXPECT_TRUE(has(played, "you played P-3d")) << played;
    EXPECT_FALSE(has(played, "<p,o,n,y>")) << played;
    EXPECT_TRUE(has(alice->read_until("bob played P-3d"), "Game 1"));
    alice->drain();
    std::string board = alice->cmd("B 1");
    EXPECT_TRUE(std::regex_search(board, std::regex("Clocks: Black [0-9]+:[0-5][0-9], White [0-9]+:[0-5][0-9]")))
        << board;
    EXPECT_TRUE(has(alice->cmd("GAMES"), "600-30"));
    EXPECT_TRUE(has(alice->cmd("U -o"), "Error: UNDO is for correspondence games"));
    EXPECT_TRUE(has(alice->cmd("HELP -n NEW"), "NEW * P-7f TIME 10+30"));
}

// The help file's examples of NEW with a forced first move: White's challenge whose first
// (Black's) move is the handicap, written W<move> without a space.
TEST(TextLoopback, NewWithAForcedHandicapAsTheHelpFileWritesIt) {
    auto [srv, alice, bart] = TwoPlayers(temp_db("text_whandicap"), "alice", "bart.beginner");
    std::string spaced = alice->cmd("NEW bart.beginner W HANDICAP:L@1a");
    EXPECT_TRUE(has(spaced, "Error: write Black's forced first move right after W")) << spaced;
    std::string posted = alice->cmd("NEW BART.BEGINNER WHANDICAP:L@1a");
    EXPECT_TRUE(has(posted, "Challenge 1 added: you play White, open to BART.BEGINNER")) << posted;
    EXPECT_TRUE(has(alice->cmd("NEW !NILKKI.NUISANCE R-3h Not for the jerks!"), "Challenge 2 added"));
    // USER with several patterns lists the players of each; a pattern of only oneself is refused.
    std::string users = alice->cmd("USER alice bart.*");
    EXPECT_TRUE(has(users, "alice ") && has(users, "bart.beginner")) << users;
    EXPECT_TRUE(has(alice->cmd("NEW alice P-7f"), "Error: the pattern alice names only you")) << users;
    std::string listed = bart->cmd("NEW");
    EXPECT_TRUE(has(listed, "WHANDICAP:L@1a ")) << listed;  // long columns stay apart
    EXPECT_TRUE(has(listed, "!NILKKI.NUISANCE corr-7d")) << listed;
    std::string accepted = bart->cmd("N 1");
    EXPECT_TRUE(has(accepted, "game 1")) << accepted;
    // The forced move was played for bart on accepting: White's left lance (1a) is gone.
    std::string board = bart->cmd("MOVES 1");
    EXPECT_TRUE(has(board, "HANDICAP")) << board;
    alice->read_until("accepted challenge 1");
    alice->drain();
    std::string b = alice->cmd("B 1");
    EXPECT_TRUE(has(b, "White (alice) to move")) << b;
}

// The commands the other tests leave out: HANDICAP as the first move, RESIGN with its
// confirmation, DECLARE refused, PASSWORD, the REFRESH, STATS, OBSERVE, PUSH and EXIT aliases.
TEST(TextLoopback, HandicapResignPasswordAndAliases) {
    auto [srv, alice, bob] = TwoPlayers(temp_db("text_more"));
    start_game_as_white(*alice, *bob, "bob");  // bob is Black
    EXPECT_TRUE(has(bob->cmd("REFRESH 1"), "Black (bob) to move"));
    EXPECT_TRUE(has(bob->cmd("HANDICAP"), "usage: HANDICAP"));
    std::string h = confirmed(*bob, "HANDICAP L@1a");
    EXPECT_TRUE(has(h, "you played")) << h;
    EXPECT_TRUE(has(bob->cmd("B 1"), "White (alice) to move"));
    alice->cmd("B 1");
    EXPECT_TRUE(has(alice->cmd("RESIGN", "(yes/no) "), "resign game 1"));
    EXPECT_TRUE(has(alice->cmd("no"), "Resignation not made."));
    resign(*alice, "1");
    EXPECT_TRUE(has(bob->read_until("is over"), "Game 1"));
    bob->drain();
    // A declaration without the entering king's conditions loses (the CSA rule).
    start_game_as_white(*alice, *bob, "bob", 2);
    EXPECT_TRUE(has(play(*bob, "P-7f"), "you played"));
    alice->drain();
    alice->cmd("B 2");
    std::string declared = alice->cmd("DECLARE");
    EXPECT_TRUE(has(declared, "declaration failed")) << declared;
    EXPECT_TRUE(has(declared + alice->drain(), "Black wins by illegal move")) << declared;

    EXPECT_TRUE(has(alice->cmd("PASSWORD wrong newsecret"), "Error:"));
    EXPECT_TRUE(has(alice->cmd("PASSWORD secret newsecret"), "Password changed."));
    EXPECT_TRUE(has(alice->cmd("STATS alice"), "alice"));
    EXPECT_TRUE(has(alice->cmd("OBSERVE 1"), "Watching game 1"));
    EXPECT_TRUE(has(alice->cmd("PUSH"), "not offered"));
    alice->send_line("EXIT");
    EXPECT_TRUE(has(alice->read_until("Bye."), "Bye."));
    EXPECT_TRUE(alice->closed_by_peer());
    LineClient again(srv.ports.at("text"));
    again.read_until("hisha> ");
    EXPECT_TRUE(has(again.cmd("LOGIN alice secret"), "incorrect"));
    EXPECT_TRUE(has(again.cmd("LOGIN alice newsecret"), "Welcome, alice"));
}
