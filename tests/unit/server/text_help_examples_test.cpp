// Every example and rule of 003's help file (Shoogi Server's), tried over a real socket against
// a hisha-server process, each reply asserted: the command list and its abbreviations, HELP's
// topics, BOARD -o, MOVES and its More prompt, the NEW forms, REMOVE, PLAY's prompt, every
// example of NOTATION, HANDICAP, RESIGN, UNDO's cases, SAY/TELL/`.`, USER and WHO with patterns,
// the SET commands (kept across logins) and SHELL. What text_loopback_test covers already is
// not repeated (TELL to an absent player, the forced first move, a replayed move locked, ...).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server_process.h"
#include "test_util.h"
#include "text_session.h"

using namespace hisha::server::test;

namespace {

// start_game_as_white, and the game then loaded as the challenger's current one.
void start_and_load_game(LineClient& challenger, LineClient& opponent, const std::string& opponent_name, int num) {
    start_game_as_white(challenger, opponent, opponent_name, num);
    EXPECT_TRUE(has(challenger.cmd("B " + std::to_string(num)), "Black (" + opponent_name + ") to move."));
}

// Plays `moves` alternately, `first` moving first; each reply must say the move was played,
// and the other side's notice is read.
void play_line(LineClient& first, LineClient& second, const std::vector<std::string>& moves) {
    for (std::size_t i = 0; i < moves.size(); ++i) {
        LineClient& mover = i % 2 ? second : first;
        LineClient& other = i % 2 ? first : second;
        std::string r = play(mover, moves[i]);
        EXPECT_TRUE(has(r, "you played")) << moves[i] << ": " << r;
        other.read_until(" played ");
        other.drain(50);
    }
}

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

}  // namespace

// COMMANDS, COMMAND-LIST: every command and abbreviation of the list is there, runs, and has
// its help; HELP's examples (SHOGI, a piece by name or letter, COMMAND-LIST, PROHIBITED, ALL,
// * and GENERAL) each give their topic.
TEST(TextHelpExamples, TheCommandListItsAbbreviationsAndHelpTopics) {
    ServerProcess srv(temp_db("help_examples_list"));
    auto c = text_login(srv, "alice");
    std::string list = c->cmd("HELP -n COMMAND-LIST");
    for (const char* entry : {"B, BOARD or REFRESH", "G or GAMES", "?, H or HELP", "HANDICAP", "M or MOVES", "N or NEW",
                              "PLAY", "REMOVE", "RESIGN", "SAY", "SET", "!, SHELL or PUSH", "SHOUT", "S or STAT",
                              "STATS or USER", "TELL", "U or UNDO", "W or WHO", "ADMIN"})
        EXPECT_TRUE(has(list, entry)) << entry << " missing from:\n" << list;
    // Each abbreviation runs its command.
    EXPECT_TRUE(has(c->cmd("G"), "No active games."));
    EXPECT_TRUE(has(c->cmd("S"), "You are not playing any games"));
    EXPECT_TRUE(has(c->cmd("N"), "No new games."));
    EXPECT_TRUE(has(c->cmd("W"), "alice"));
    EXPECT_TRUE(has(c->cmd("STATS"), "alice"));
    EXPECT_TRUE(has(c->cmd("B"), "Error: no current game"));
    EXPECT_TRUE(has(c->cmd("REFRESH"), "Error: no current game"));
    EXPECT_TRUE(has(c->cmd("M"), "Error: no current game"));
    EXPECT_TRUE(has(c->cmd("U"), "Error: no current game"));
    EXPECT_TRUE(has(c->cmd("H -n PLAY"), "Usage: PLAY <move-notation>"));
    EXPECT_TRUE(has(c->cmd("ADMIN BANS"), "Error: you are not an administrator"));  // listed for everyone, run by few
    EXPECT_TRUE(has(c->cmd("? -n PLAY"), "Usage: PLAY <move-notation>"));
    // "For more information about a command, type help <command>": each one's usage, by its
    // name or its abbreviation.
    const std::pair<const char*, const char*> usage[] = {
        {"BOARD", "Usage: BOARD [-o] [<gid>]"},
        {"B", "Usage: BOARD [-o] [<gid>]"},
        {"GAMES", "Usage: GAMES"},
        {"G", "Usage: GAMES"},
        {"HELP", "Usage: HELP [-n] <topic>"},
        {"HANDICAP", "Usage: HANDICAP piece1[,piece2,...,piecen]"},
        {"MOVES", "Usage: MOVES [-n] [<gid>]"},
        {"M", "Usage: MOVES [-n] [<gid>]"},
        {"NEW", "Usage: NEW <pattern> <move-notation> [comment text]"},
        {"N", "Usage: NEW W[move-notation] [comment text]"},
        {"PLAY", "Usage: PLAY <move-notation>"},
        {"REMOVE", "Usage: REMOVE <challenge number>"},
        {"RESIGN", "Usage: RESIGN"},
        {"SAY", "Usage: SAY message text."},
        {"SET", "Usage: SET BLACK <attribute-name>"},
        {"SHELL", "Usage: SHELL [command]"},
        {"PUSH", "Usage: SHELL [command]"},
        {"SHOUT", "Usage: SHOUT message text."},
        {"STAT", "Usage: STAT, or S for short."},
        {"S", "Usage: STAT, or S for short."},
        {"STATS", "Usage: USER [pattern ...]"},
        {"USER", "Usage: USER [pattern ...]"},
        {"TELL", "Usage: TELL <player.name> message text."},
        {"UNDO", "Usage: UNDO [-o] (or U for short)."},
        {"U", "Usage: UNDO [-o] (or U for short)."},
        {"WHO", "Usage: WHO [pattern] (or W for short)."},
        {"W", "Usage: WHO [pattern] (or W for short)."},
        {"ADMIN", "Usage: ADMIN <command> [arguments]"},
    };
    for (auto& [topic, text] : usage)
        EXPECT_TRUE(has(c->cmd(std::string("HELP -n ") + topic), text)) << "HELP " << topic;

    // HELP's own examples.
    std::string shogi = c->cmd("HELP -n SHOGI");
    EXPECT_TRUE(has(shogi, "SHOGI RULES") && has(shogi, "HISTORY OF SHOGI")) << shogi.substr(0, 400);
    std::string gold = c->cmd("HELP -n gold");
    EXPECT_TRUE(has(gold, "G, THE GOLD GENERAL, KINSHOO, KIN")) << gold;
    EXPECT_FALSE(has(gold, "THE SILVER GENERAL")) << gold;
    EXPECT_TRUE(has(c->cmd("HELP -n +B"), "+B, H, THE PROMOTED BISHOP"));
    EXPECT_TRUE(has(c->cmd("HELP -n COMMAND-LIST"), "For more information about a command"));
    std::string prohibited = c->cmd("HELP -n PROHIBITED");
    EXPECT_TRUE(has(prohibited, "PROHIBITED DROPS") && has(prohibited, "drop a pawn to give checkmate")) << prohibited;
    std::string all = c->cmd("HELP -n ALL");
    EXPECT_TRUE(has(all, "SHOGI RULES") && has(all, "COMMAND-LIST") && has(all, "PATTERNS, PATTERN")
                && has(all, "!FOO.BAR matches anything else except FOO.BAR"))
        << "HELP ALL lists the whole file";
    EXPECT_GT(count(all, "\n"), 1000);
    std::string topics = c->cmd("HELP -n *");
    for (const char* t : {"SHOGI RULES", "PIECES", "COMMAND-LIST", "NOTATION", "PATTERNS"})
        EXPECT_TRUE(has(topics, t)) << t;
    std::string general = c->cmd("HELP -n GENERAL");
    EXPECT_TRUE(has(general, "THE GOLD GENERAL") && has(general, "THE SILVER GENERAL"));
    // Without -n a long topic stops at the More prompt; q ends it.
    EXPECT_TRUE(has(c->cmd("HELP ALL", "(p,o,y/<space>,<enter>,q/n) "), "-- More --"));
    EXPECT_TRUE(has(c->cmd("q"), "hisha> "));
    EXPECT_TRUE(has(c->cmd("PATTERN"), "Many commands in Shoogi Server use so called 'patterns'"));
    // SHELL's examples: no shell is run for a client.
    EXPECT_TRUE(has(c->cmd("!"), "Shell access is not offered"));
    EXPECT_TRUE(has(c->cmd("!ls -la"), "Shell access is not offered"));
}

// NOTATION's examples, each played in a game (P-7f, G4a-5b, Bx2b+, N-3g=, R*1d, +S5bx4a's form,
// the H and D letters), the forms refused (an ambiguous source, a promotion or a source with a
// drop), a move without PLAY, and the modern rule the help now states: a move that leaves the
// king in check is refused.
TEST(TextHelpExamples, EveryNotationExamplePlayedInAGame) {
    auto [srv, alice, bob] = TwoPlayers(temp_db("help_examples_notation"));
    start_and_load_game(*alice, *bob, "bob", 1);  // bob is Black
    EXPECT_TRUE(has(bob->cmd("p-7f"), "Error: a move is played with the PLAY command: PLAY p-7f"));
    EXPECT_TRUE(has(play(*bob, "p-7f"), "you played P-7f"));  // Black's pawn from 7g
    alice->drain();
    play_line(*alice, *bob, {"P-3d", "P-2f"});
    EXPECT_TRUE(has(alice->cmd("PLAY G-5b"), "Error: G-5b: ambiguous: G4a-5b, G6a-5b"));
    play_move(*alice, *bob, "G4a-5b");
    std::string q = bob->cmd("PLAY Bx2b+", "> ");  // the promotion given: no Promote? question
    EXPECT_TRUE(has(q, "Play Bx2b+? <p,o,n,y>")) << q;
    EXPECT_TRUE(has(bob->cmd("y"), "you played Bx2b+"));
    alice->drain();
    play_move(*alice, *bob, "Sx2b");
    EXPECT_TRUE(has(bob->cmd("PLAY B*4b+"), "Error: a drop cannot promote"));
    EXPECT_TRUE(has(bob->cmd("PLAY B8h*4b"), "Error: a drop has no origin square"));
    std::string check = play(*bob, "B*4b");
    EXPECT_TRUE(has(check, "you played B*4b") && has(check, "White's king is checked by 4b.")) << check;
    alice->drain();
    std::string refused = alice->cmd("PLAY P-9d");
    EXPECT_TRUE(has(refused, "Error:") && has(refused, "check")) << refused;
    EXPECT_TRUE(has(alice->cmd("B 1"), "White (alice) to move."));
    EXPECT_TRUE(has(play(*alice, "Gx4b"), "you played Gx4b"));
    std::string rule = alice->cmd("HELP -n CHECK");
    EXPECT_TRUE(has(rule, "Hisha's server follows the modern rules: such a")) << rule;
    EXPECT_FALSE(has(rule, "is not illegal in")) << rule;
    bob->drain();

    // Game 2: a white knight to 3g without promoting, a rook taken and dropped, a dragon.
    start_and_load_game(*alice, *bob, "bob", 2);
    play_line(*bob, *alice, {"P-3f", "P-3d", "P-2f", "N-3c", "P-2e", "N-4e", "P-9f"});
    alice->cmd("B 2");
    EXPECT_TRUE(has(play(*alice, "N-3g="), "you played N-3g="));  // White's knight, not promoted
    bob->drain();
    play_line(*bob, *alice, {"P-7f", "P-7d", "B-5e", "P-9d", "Bx8b+", "Sx8b"});
    EXPECT_TRUE(has(bob->cmd("PLAY R*1d="), "Error: a drop cannot promote"));
    play_move(*bob, *alice, "R*1d");
    play_line(*alice, *bob, {"K-4b", "Rx1c+", "P-5d"});
    // H and D are the horse and the dragon; +R (+S5bx4a's form) names the promoted piece.
    q = bob->cmd("PLAY D1cx1a", "> ");
    EXPECT_TRUE(has(q, "<p,o,n,y>") && has(q, "x1a")) << q;
    EXPECT_TRUE(has(bob->cmd("n"), "Move not made."));
    std::string dragon = play(*bob, "+R1cx1a");
    EXPECT_TRUE(has(dragon, "you played +R") && has(dragon, "x1a")) << dragon;
    alice->drain();
    // SET DRAGON: the kanji of the dragon, old or new (BSTYLE 2 draws kanji).
    EXPECT_TRUE(has(bob->cmd("SET BSTYLE 2"), "BSTYLE set to 2"));
    std::string board = bob->cmd("B 2");
    EXPECT_TRUE(has(board, "竜") && !has(board, "龍")) << board;
    EXPECT_TRUE(has(bob->cmd("SET DRAGON OLD"), "DRAGON set to OLD"));
    board = bob->cmd("B 2");
    EXPECT_TRUE(has(board, "龍") && !has(board, "竜")) << board;
    EXPECT_TRUE(has(bob->cmd("SET DRAGON NEWER"), "Error: usage: SET DRAGON OLD|NEW"));
    EXPECT_TRUE(has(bob->cmd("SET DRAGON NEW"), "DRAGON set to NEW"));
    EXPECT_TRUE(has(bob->cmd("B 2"), "竜"));

    // Game 3: White's P-7f, from 7e.
    start_and_load_game(*alice, *bob, "bob", 3);
    play_line(*bob, *alice, {"P-2f", "P-7d", "P-2e", "P-7e", "P-2d"});
    alice->cmd("B 3");
    EXPECT_TRUE(has(play(*alice, "P-7f"), "you played P-7f"));
}

// BOARD -o, MOVES with -n and without: the More prompt's p, o, <enter>, y, q; the whole game
// must be loaded before a playing command after quitting the list midway; PLAY's p and o.
TEST(TextHelpExamples, BoardFromEitherSideAndTheMovesPrompt) {
    auto [srv, alice, bob] = TwoPlayers(temp_db("help_examples_moves"));
    start_and_load_game(*alice, *bob, "bob", 1);  // bob is Black
    // 24 plies: the list (a title and a line a move) is longer than a screen of 20 lines.
    play_line(*bob, *alice,
              {"P-2f", "P-7d", "P-2e", "P-7e", "P-2d", "P-7f", "P-1f", "P-1d", "P-9f", "P-9d", "P-5f", "P-5d",
               "P-4f", "P-4d", "P-6f", "P-6d", "K-6h", "K-4b", "K-7h", "K-3b", "P-3f", "P-3d", "P-8f", "P-8d"});
    // BOARD: Black's view puts rank a at the top, -o the other way round.
    std::string mine = bob->cmd("B 1");
    std::string other = bob->cmd("B -o 1");
    auto at = [](const std::string& b, const char* row) { return b.find(row); };
    EXPECT_LT(at(mine, ": a\r\n"), at(mine, ": i\r\n")) << mine;
    EXPECT_GT(at(other, ": a\r\n"), at(other, ": i\r\n")) << other;
    std::string alice_view = alice->cmd("B -o 1");  // alice is White: -o shows Black's view
    EXPECT_EQ(alice_view.substr(alice_view.find('\n')), mine.substr(mine.find('\n')));

    std::string all = bob->cmd("M -n 1");
    EXPECT_TRUE(has(all, "  24. P-8d") && !has(all, "-- More --")) << all;
    std::string page = bob->cmd("M 1", "(p,o,y/<space>,<enter>,q/n) ");
    EXPECT_TRUE(has(page, "  19. K-7h") && !has(page, "  20. K-3b")) << page;
    // p: the board after the 19 moves listed, from the side of the player to move (White);
    // o: from the other side.
    std::string p = bob->cmd("p", "(p,o,y/<space>,<enter>,q/n) ");
    EXPECT_GT(at(p, ": a\r\n"), at(p, ": i\r\n")) << p;
    std::string o = bob->cmd("o", "(p,o,y/<space>,<enter>,q/n) ");
    EXPECT_LT(at(o, ": a\r\n"), at(o, ": i\r\n")) << o;
    std::string one = bob->cmd("", "(p,o,y/<space>,<enter>,q/n) ");  // <enter>: one line
    EXPECT_TRUE(has(one, "  20. K-3b") && !has(one, "  21.")) << one;
    std::string quit_midway = bob->cmd("q");
    EXPECT_FALSE(has(quit_midway, "  21.")) << quit_midway;
    EXPECT_TRUE(has(bob->cmd("PLAY P-1e"), "Error: load the whole game first")) << "the list was quit midway";
    std::string rest = bob->cmd("M 1", "(p,o,y/<space>,<enter>,q/n) ");
    rest += bob->cmd("y");  // the next screenful: the rest
    EXPECT_TRUE(has(rest, "  24. P-8d")) << rest;
    // Loaded now: PLAY, and its prompt's p (the board after the move, my view) and o.
    std::string q = bob->cmd("PLAY P-1e", "<p,o,n,y> ");
    EXPECT_TRUE(has(q, "Play P-1e? <p,o,n,y>")) << q;
    std::string after_p = bob->cmd("p", "<p,o,n,y> ");
    EXPECT_LT(at(after_p, ": a\r\n"), at(after_p, ": i\r\n")) << after_p;
    EXPECT_TRUE(has(after_p, ": P: e\r\n")) << "the pawn on 1e:\n" << after_p;
    std::string after_o = bob->cmd("o", "<p,o,n,y> ");
    EXPECT_GT(at(after_o, ": a\r\n"), at(after_o, ": i\r\n")) << after_o;
    EXPECT_TRUE(has(bob->cmd("y"), "you played P-1e"));
}

// NEW's four examples and forms, each answered by who may and may not, and REMOVE.
TEST(TextHelpExamples, NewExamplesAndRemove) {
    auto [srv, alice, erkki] = TwoPlayers(temp_db("help_examples_new"), "alice", "erkki.expert");
    auto nilkki = text_login(srv, "nilkki.nuisance");
    auto bart = text_login(srv, "bart.beginner");

    // NEW * p-7f: anybody may answer; the challenger plays Black and P-7f is played.
    EXPECT_TRUE(has(alice->cmd("NEW * p-7f"), "Challenge 1 added: you play Black, open to *."));
    EXPECT_TRUE(has(nilkki->cmd("N"), "P-7f"));
    EXPECT_TRUE(has(erkki->cmd("N"), "P-7f"));
    std::string accepted = nilkki->cmd("N 1");
    EXPECT_TRUE(has(accepted, "You accepted challenge 1: game 1.") && has(accepted, "White (nilkki.nuisance) to move"))
        << accepted;
    alice->read_until("accepted challenge 1");
    alice->drain();

    // NEW ERKKI.EXPERT HANDICAP:L@1a,R@8b: only erkki, who plays White without rook and lance.
    EXPECT_TRUE(has(alice->cmd("NEW ERKKI.EXPERT HANDICAP:L@1a,R@8b"), "Challenge 2 added: you play Black"));
    EXPECT_TRUE(has(bart->cmd("N 2"), "Error: challenge 2 is not open to you"));
    accepted = erkki->cmd("N 2");
    EXPECT_TRUE(has(accepted, "game 2") && has(accepted, "White (erkki.expert) to move")) << accepted;
    std::string board = erkki->cmd("B 2");
    EXPECT_EQ(count(board, ": r:"), 0) << "White's rook is gone:\n" << board;
    EXPECT_EQ(count(board, ": l:"), 1) << "one White lance left:\n" << board;
    // The handicap was the first move: it cannot be played again later.
    EXPECT_TRUE(has(erkki->cmd("HANDICAP L@9a"), "Error: a handicap can only be the first move"));
    alice->drain();

    // NEW !NILKKI.NUISANCE r-3h Not for the jerks!: everybody but nilkki.
    EXPECT_TRUE(has(alice->cmd("NEW !NILKKI.NUISANCE r-3h Not for the jerks!"), "Challenge 3 added"));
    EXPECT_TRUE(has(nilkki->cmd("N"), "No new games"));
    EXPECT_TRUE(has(nilkki->cmd("N 3"), "Error: challenge 3 is not open to you"));
    std::string listed = bart->cmd("N");
    EXPECT_TRUE(has(listed, "R-3h") && has(listed, "Not for the jerks!")) << listed;

    // NEW BART.BEGINNER WHANDICAP:L@1a: only bart, who plays Black; his first move is forced.
    EXPECT_TRUE(has(alice->cmd("NEW BART.BEGINNER WHANDICAP:L@1a"), "Challenge 4 added: you play White"));
    EXPECT_TRUE(has(erkki->cmd("N 4"), "Error: challenge 4 is not open to you"));
    accepted = bart->cmd("N 4");
    EXPECT_TRUE(has(accepted, "game 3") && has(accepted, "White (alice) to move")) << accepted;
    EXPECT_EQ(count(bart->cmd("B 3"), ": l:"), 1) << "White's left lance removed";
    EXPECT_TRUE(has(bart->cmd("U"), "Error: the first move forced with NEW cannot be undone"));
    alice->drain();

    // NEW W [comment] with no forced move; NEW <pattern> W.
    EXPECT_TRUE(has(alice->cmd("NEW W any takers?"), "Challenge 5 added: you play White, open to *."));
    EXPECT_TRUE(has(alice->cmd("NEW erkki.* W"), "Challenge 6 added: you play White, open to erkki.*."));
    listed = erkki->cmd("N");
    EXPECT_TRUE(has(listed, "any takers?") && has(listed, "erkki.*")) << listed;

    // REMOVE: only one's own challenge; then it is gone.
    EXPECT_TRUE(has(erkki->cmd("REMOVE 5"), "Error: challenge 5 is not yours"));
    EXPECT_TRUE(has(alice->cmd("REMOVE 5"), "Challenge 5 removed."));
    EXPECT_FALSE(has(erkki->cmd("N"), "any takers?"));
    EXPECT_TRUE(has(alice->cmd("REMOVE 5"), "Error: no challenge number 5"));
    EXPECT_TRUE(has(erkki->cmd("N 5"), "Error: no challenge number 5"));
    // GAMES and STAT list the games.
    std::string games = bart->cmd("G");
    EXPECT_TRUE(has(games, "nilkki.nuisance") && has(games, "erkki.expert") && has(games, "bart.beginner")) << games;
    std::string stat = alice->cmd("STAT");
    EXPECT_EQ(count(stat, "\r\n   "), 3) << stat;
}

// HANDICAP as the first move, written as 003 writes it (and the longhand PLAY HANDICAP:...),
// undone while the opponent has not seen it; RESIGN's confirmation and a resignation undone
// before the opponent has seen it, not after; UNDO's other refusals; SAY to an absent opponent.
TEST(TextHelpExamples, HandicapResignAndUndoCases) {
    auto [srv, alice, bob] = TwoPlayers(temp_db("help_examples_undo"));
    start_and_load_game(*alice, *bob, "bob", 1);  // bob is Black
    text_quit(alice);                             // alice sees nothing from now on
    bob->cmd("B 1");
    EXPECT_TRUE(has(bob->cmd("HANDICAP L@1a, R@8b"), "Error: usage: HANDICAP")) << "no blanks between";
    EXPECT_TRUE(has(bob->cmd("U"), "Error: there is no move to undo"));
    std::string q = bob->cmd("HANDICAP L@1a,R@8b", "<p,o,n,y> ");
    EXPECT_TRUE(has(q, "HANDICAP:L@1a,R@8b")) << q;
    EXPECT_TRUE(has(bob->cmd("y"), "you played"));
    std::string board = bob->cmd("B 1");
    EXPECT_TRUE(has(board, "White (alice) to move.") && count(board, ": r:") == 0) << board;
    EXPECT_TRUE(has(bob->cmd("U -o"), "Error: the last move is yours (UNDO without -o undoes it)"));
    EXPECT_TRUE(has(bob->cmd("U"), "the last move was taken back"));  // a handicap move too
    board = bob->cmd("B 1");
    EXPECT_TRUE(has(board, "Black (bob) to move.") && count(board, ": r:") == 1) << board;
    EXPECT_TRUE(has(play(*bob, "HANDICAP:L@1a,R@8b"), "you played"));

    // SAY to an opponent who is not online: asked, and left as a message.
    EXPECT_TRUE(has(bob->cmd("SAY good luck", "(yes/no) "), "alice is not online. Leave a message anyway?"));
    EXPECT_TRUE(has(bob->cmd("yes"), "Message left for alice."));

    std::string welcome;
    alice = text_login(srv, "alice", false, &welcome);
    EXPECT_TRUE(has(welcome, "From bob") && has(welcome, "good luck")) << welcome;
    EXPECT_TRUE(has(alice->cmd("B 1"), "White (alice) to move."));
    EXPECT_TRUE(has(alice->cmd("U"), "Error: the last move is your opponent's (UNDO -o undoes it)"));
    play_move(*alice, *bob, "P-3d");
    play_move(*bob, *alice, "P-7f");
    text_quit(alice);

    // RESIGN: anything but "yes" keeps the game; an unseen resignation can be undone.
    bob->cmd("B 1");
    EXPECT_TRUE(has(bob->cmd("RESIGN", "(yes/no) "), "resign game 1"));
    EXPECT_TRUE(has(bob->cmd("y"), "Resignation not made."));
    resign(*bob, "1");
    EXPECT_TRUE(has(bob->cmd("B 1"), "Game over: White wins by resignation."));
    EXPECT_TRUE(has(bob->cmd("U"), "the last move was taken back"));
    // Bob resigned on Alice's turn (after his P-7f): taking it back leaves her to move.
    std::string after_undo = bob->cmd("B 1");
    EXPECT_TRUE(has(after_undo, "White (alice) to move.")) << after_undo;
    resign(*bob, "1");
    alice = text_login(srv, "alice", false);
    EXPECT_TRUE(has(alice->cmd("B 1"), "Game over: White wins by resignation."));
    EXPECT_TRUE(has(bob->cmd("U"), "Error: your opponent has already seen your move"));
    EXPECT_TRUE(has(alice->cmd("U -o"), "Error:"));
    EXPECT_TRUE(has(bob->cmd("B 1"), "Game over: White wins by resignation."));
}

// SAY's and TELL's examples, TELL . and `.` with and without a blank, a message left for an
// absent player shown once at the next login and then deleted.
TEST(TextHelpExamples, MessageExamples) {
    auto [srv, alice, antti] = TwoPlayers(temp_db("help_examples_messages"), "alice", "antti.karttunen");
    EXPECT_TRUE(has(alice->cmd("TELL ANTTI.KARTTUNEN There's a bug in the command xxx."), "Told antti.karttunen."));
    EXPECT_TRUE(has(antti->read_until("xxx."), "alice tells you: There's a bug in the command xxx."));
    antti->drain();
    // TELL . and `.`, with a blank and without, tell the last one told.
    for (const char* line : {"TELL . a second line", ". a third line", ".a fourth line"})
        EXPECT_TRUE(has(alice->cmd(line), "Told antti.karttunen.")) << line;
    std::string got = antti->read_until("a fourth line");
    EXPECT_TRUE(has(got, "alice tells you: a second line") && has(got, "alice tells you: a third line")) << got;
    antti->drain();
    EXPECT_TRUE(has(alice->cmd("TELL nobody.here hello"), "Error: no such player: nobody.here"));
    EXPECT_TRUE(has(alice->cmd("SAY hello"), "Error: no current game"));
    EXPECT_TRUE(has(alice->cmd("SHOUT Good evening!"), "hisha> "));
    EXPECT_TRUE(has(antti->read_until("Good evening!"), "alice shouts: Good evening!"));
    antti->drain();
    text_quit(antti);
    EXPECT_TRUE(has(alice->cmd("TELL antti.karttunen see you", "(yes/no) "), "not online"));
    EXPECT_TRUE(has(alice->cmd("yes"), "Message left for antti.karttunen."));
    EXPECT_TRUE(has(alice->cmd("TELL antti.karttunen not this one", "(yes/no) "), "not online"));
    EXPECT_TRUE(has(alice->cmd("no"), "Message not left."));
    std::string welcome;
    auto back = text_login(srv, "antti.karttunen", false, &welcome);
    EXPECT_TRUE(has(welcome, "You have 1 message:") && has(welcome, "From alice") && has(welcome, "see you"))
        << welcome;
    EXPECT_FALSE(has(welcome, "not this one")) << welcome;
    text_quit(back);
    back = text_login(srv, "antti.karttunen", false, &welcome);
    EXPECT_TRUE(has(welcome, "Welcome, antti.karttunen.") && !has(welcome, "see you"))
        << "deleted once seen: " << welcome;
}

// USER's examples (USER, USER *, USER *NEN, USER FOO.BAR) and the PATTERNS operators over the
// socket: *.BAR, !FOO.BAR, ?, ?*@, <...>, <^...>; WHO with a pattern; a bad pattern refused.
TEST(TextHelpExamples, UserAndWhoWithPatterns) {
    ServerProcess srv(temp_db("help_examples_users"), {"--bots", ""});
    auto alice = text_login(srv, "alice");
    std::unique_ptr<LineClient> foo;  // foo.bar stays online, the others log out
    for (const char* name : {"antti.karttunen", "foo.bar", "fu.bar", "anna"}) {
        auto u = text_login(srv, name);
        if (std::string(name) == "foo.bar")
            foo = std::move(u);
        else
            text_quit(u);
    }
    auto names_in = [](const std::string& listing) {
        std::vector<std::string> out;
        for (const char* n : {"alice", "antti.karttunen", "foo.bar", "fu.bar", "anna"})
            if (listing.find(std::string("\n") + n + " ") != std::string::npos)
                out.emplace_back(n);
        return out;
    };
    using V = std::vector<std::string>;
    EXPECT_EQ(names_in(alice->cmd("USER")), V{"alice"});
    EXPECT_EQ(names_in(alice->cmd("USER *")), (V{"alice", "antti.karttunen", "foo.bar", "fu.bar", "anna"}));
    EXPECT_EQ(names_in(alice->cmd("USER *NEN")), V{"antti.karttunen"});
    EXPECT_EQ(names_in(alice->cmd("USER FOO.BAR")), V{"foo.bar"});
    EXPECT_EQ(names_in(alice->cmd("USER *.BAR")), (V{"foo.bar", "fu.bar"}));
    EXPECT_EQ(names_in(alice->cmd("USER !FOO.BAR")), (V{"alice", "antti.karttunen", "fu.bar", "anna"}));
    EXPECT_EQ(names_in(alice->cmd("USER F?.BAR")), V{"fu.bar"});
    EXPECT_EQ(names_in(alice->cmd("USER ?*@")), V{"anna"});
    EXPECT_EQ(names_in(alice->cmd("USER <F>*")), (V{"foo.bar", "fu.bar"}));
    EXPECT_EQ(names_in(alice->cmd("USER <^AF>*")), V{});
    EXPECT_EQ(names_in(alice->cmd("USER <^F>*")), (V{"alice", "antti.karttunen", "anna"}));
    EXPECT_EQ(names_in(alice->cmd("USER a<^n>*")), V{"alice"});
    EXPECT_TRUE(has(alice->cmd("USER <>>"), "No player matches <>>."));
    EXPECT_TRUE(has(alice->cmd("USER <ABC"), "Error: bad pattern <ABC"));
    // USER shows the player's record: rating, games, last login.
    std::string me = alice->cmd("USER");
    EXPECT_TRUE(has(me, "Rating") && has(me, "Won") && has(me, "Last login") && has(me, "online")) << me;

    // WHO: who is online, since when; with a pattern only those it matches.
    std::string who = alice->cmd("WHO");
    EXPECT_TRUE(has(who, "Logged in (UTC)")) << who;
    EXPECT_EQ(names_in(who), (V{"alice", "foo.bar"}));
    EXPECT_EQ(names_in(alice->cmd("W *.BAR")), V{"foo.bar"});
    EXPECT_TRUE(has(alice->cmd("WHO fu.bar"), "Nobody matching fu.bar is online."));
    EXPECT_TRUE(has(alice->cmd("WHO <ABC"), "Error: bad pattern"));
}

// SET's commands: the attributes (SET BLACK ?, SET WHITE REV's example, THREATENED), KANJI,
// PSTYLE, BSTYLE 0/1/2 and STYLE as its synonym, bad values refused, and the settings kept for
// the next login.
TEST(TextHelpExamples, SetCommandsAndTheirPersistence) {
    auto [srv, alice, bob] = TwoPlayers(temp_db("help_examples_set"));
    start_and_load_game(*alice, *bob, "bob", 1);
    std::string attrs = alice->cmd("SET BLACK ?");
    EXPECT_TRUE(has(attrs, "Attributes:") && has(attrs, "REV") && has(attrs, "NONE")) << attrs;
    EXPECT_TRUE(has(alice->cmd("SET WHITE ?"), "Attributes:"));
    EXPECT_TRUE(has(alice->cmd("SET WHITE BLINKY"), "Error: unknown attribute BLINKY"));
    EXPECT_TRUE(has(alice->cmd("SET WHITE REV"), "WHITE set to REV."));
    std::string board = alice->cmd("B 1");
    EXPECT_TRUE(has(board, "\x1b[7m")) << "White's pieces in reverse video:\n" << board;
    EXPECT_TRUE(has(alice->cmd("SET WHITE NONE"), "WHITE set to NONE."));
    EXPECT_FALSE(has(alice->cmd("B 1"), "\x1b[7m"));
    EXPECT_TRUE(has(alice->cmd("SET BLACK BOLD"), "BLACK set to BOLD."));
    EXPECT_TRUE(has(alice->cmd("SET THREATENED U"), "THREATENED set to U."));
    // BSTYLE 1: Black in kanji, White in full-width letters (K for the king); STYLE is BSTYLE.
    EXPECT_TRUE(has(alice->cmd("SET STYLE 1"), "BSTYLE set to 1."));
    board = alice->cmd("B 1");
    EXPECT_TRUE(has(board, "歩") && has(board, "\xef\xbd\x90") && has(board, "\xef\xbc\xab")) << board;
    EXPECT_TRUE(has(alice->cmd("SET BSTYLE 3"), "Error: usage: SET BSTYLE 0|1|2"));
    EXPECT_TRUE(has(alice->cmd("SET PSTYLE 4"), "PSTYLE set to 4."));
    EXPECT_TRUE(has(alice->cmd("SET KANJI 2"), "KANJI set to 2."));
    EXPECT_TRUE(has(alice->cmd("SET NOSUCH 1"), "Error: unknown setting NOSUCH"));
    // Kept for the next login.
    text_quit(alice);
    alice = text_login(srv, "alice", false);
    std::string settings = alice->cmd("SET");
    for (const char* s :
         {"BLACK      BOLD", "WHITE      NONE", "THREATENED U", "KANJI      2", "PSTYLE     4", "BSTYLE     1"})
        EXPECT_TRUE(has(settings, s)) << s << " missing:\n" << settings;
    std::string euc_board = alice->cmd("B 1");
    EXPECT_TRUE(has(euc_board, "\xca\xe2")) << "BSTYLE 1 in EUC after the new login";
    EXPECT_TRUE(has(alice->cmd("SET BSTYLE 0"), "BSTYLE set to 0."));
    EXPECT_TRUE(has(alice->cmd("SET BLACK NONE"), "BLACK set to NONE."));
    EXPECT_TRUE(has(alice->cmd("B 1"), ": P: P:"));
}
