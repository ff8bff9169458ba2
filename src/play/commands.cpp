// The command table.
#include "commands.h"

#include <algorithm>
#include <cctype>

namespace hisha::play {

namespace {

constexpr unsigned G = GNU;
constexpr unsigned GX = GNU | X_DISABLED;

// clang-format off
const Command COMMANDS[] = {
    // --- the game
    {"new", "", "start a new game", "Starts a new game from the even position; the options stay.", G, cmd_new},
    {"go", "", "the computer moves now (plays the side to move)",
     "The computer takes the side to move, leaves force mode and starts thinking. Same as first.", G, cmd_go},
    {"first", "", "the computer moves now (same as go)", "Same as go.", G, cmd_go},
    {"force", "", "enter the moves of both sides",
     "Force mode: the computer stops playing and you enter the moves of both sides. In xshogi mode force sets\n"
     "the mode; at a terminal it toggles. black, white, go or switch make the computer play again.", G, cmd_force},
    {"black", "", "the computer plays White (then go)",
     "GNU Shogi's inverted pair: black makes the computer play White and you Black; go then lets the computer\n"
     "take the side to move. In xshogi mode, before any move of a set-up position, black also gives Black the move.",
     G, cmd_black},
    {"white", "", "the computer plays Black (then go)",
     "The computer plays Black and you White; go lets it move. In xshogi mode, before any move of a set-up\n"
     "position, white also gives White the move.", G, cmd_white},
    {"both", "", "the computer plays both sides", "Toggles self-play: the computer plays both sides until the game ends.",
     G, cmd_both},
    {"switch", "", "switch sides with the computer and let it move",
     "The computer takes the side to move (your side) and starts thinking; you play the other side.", G, cmd_switch},
    {"undo", "", "take back the last ply", "Takes back the last move, whoever made it.", G, cmd_undo},
    {"remove", "", "take back one move of each side", "Takes back the last two plies (equal to two undo's).", G,
     cmd_remove},
    {"hint", "", "suggest a move", "Shows the move the computer would play for the side to move.", G, cmd_hint},
    {"?", "", "move now", "While the computer thinks: stop and play the best move found so far.", NO_FLAGS,
     cmd_move_now},
    {"edit", "", "set up a position",
     "Edit mode, one token per word: # clears the board and both hands, c switches between Black's and White's\n"
     "pieces (Black first), p3b puts a pawn on 3b, p3b+ a promoted pawn, p* adds a pawn to the hand, . ends.\n"
     "Piece letters: p l n s g b r k (either case). The move history starts again at the edited position.",
     G, cmd_edit},
    {"setup", "", "set up a board from the next nine lines",
     "The next nine lines are the ranks a to i, each nine squares from file 9 to 1: P L N S G B R K, upper\n"
     "case for White and lower case for Black as on GNU Shogi's raw board, - or . for an empty square (or nine\n"
     "cells apart, +P promoted). A new game starts there (force mode ends, as with new): both hands are empty and\n"
     "Black moves.", G, cmd_setup},
    {"handicap", "NAME", "start a handicap game (rules handicaps lists them)",
     "Starts a new game with a handicap: lance, right-lance, bishop, rook, rook-lance, 2-piece, 3-piece, 4-piece,\n"
     "5-piece, 5-piece-left, 6-piece, 7-piece-left, 7-piece-right, 8-piece, 10-piece, 3-pawns (also the Japanese\n"
     "names). White gives the handicap and moves first.", NO_FLAGS, cmd_handicap},
    {"sfen", "[SFEN]", "show the position as SFEN, or set it",
     "Without an argument prints the SFEN of the position; with one (or 'startpos', optionally followed by\n"
     "'moves ...') sets up that position.", NO_FLAGS, cmd_sfen},
    {"analyze", "[depth D | time S]", "analyse the position (Enter stops)",
     "Shows the computer's principal variations for the side to move, until you press Enter or the depth or\n"
     "time given is reached; then the best move.", NO_FLAGS, cmd_analyze},
    {"solve", "[seconds] [tsume]", "solve the position as a mating problem",
     "Looks for a forced mate by the side to move (every move a check) with the df-pn solver and prints the\n"
     "shortest mate and its moves, or that there is none. Default limit 10 seconds. With `tsume` the position\n"
     "is read as a tsume problem: the defender holds every piece not shown, futile interpositions do not count.",
     NO_FLAGS, cmd_solve},
    {"quit", "", "leave the program", "Leaves the program (the experience file is saved).", G, cmd_quit},
    {"exit", "", "leave the program", "Same as quit.", G, cmd_quit},
    // --- settings
    {"level", "[moves minutes | seconds | 0 min:sec | f<min> <inc>]", "set the time control",
     "Sets the time control like the command line: `level 40 5` is 40 moves in 5 minutes, `level 30` 30 seconds\n"
     "per move, `level 0 0:30` also 30 seconds per move, `level 30 5 1 :30` 30 moves in 5 minutes then 30\n"
     "seconds a move, `level f5 10` 5 minutes plus 10 seconds a move. Without arguments it asks.", G, cmd_level},
    {"clock", "[moves minutes]", "same as level", "Same as level.", NO_FLAGS, cmd_level},
    {"gamein", "", "toggle game-in time control",
     "Game mode: the time of the level is the time for the whole game (sudden death); go must be given.", G,
     cmd_toggle},
    {"time", "CS [MOVES]", "set the computer's clock (centiseconds)",
     "Sets the computer's remaining time in centiseconds (and optionally the moves left), to keep clocks in\n"
     "step with an interface.", G, cmd_time},
    {"otime", "CS [MOVES]", "set the opponent's clock (centiseconds)", "Sets the opponent's remaining time.",
     NO_FLAGS, cmd_time},
    {"depth", "[N]", "set the maximum search depth (0: none)",
     "The computer searches at most N plies (with extensions); it stops at the time limit or at the depth,\n"
     "whichever comes first. 0 removes the limit. Without a number it asks.", G, cmd_depth},
    {"hashdepth", "[DEPTH MOVES]", "when the experience file is used",
     "Sets the minimum depth of the experience entries used and the number of moves from the start during\n"
     "which the experience file is consulted.", G, cmd_hashdepth},
    {"hash", "", "toggle the experience file (hashfile)",
     "Uses or stops using the experience file: positions and moves learned from previous games.", G, cmd_toggle},
    {"book", "", "toggle the opening book", "Turns the use of the opening book off (and on again).", G, cmd_toggle},
    {"easy", "", "toggle easy mode (no thinking on your time)",
     "Easy mode on (the default): the computer does not think while you do. Off: it keeps searching on your\n"
     "time. (xshogi sends easy to turn it off.)", G, cmd_toggle},
    {"hard", "", "think on the opponent's time (easy off)", "Turns easy mode off.", NO_FLAGS, cmd_hard},
    {"random", "[off]", "randomise the computer's moves slightly",
     "The computer chooses at random among moves within 0.2 pawn of its best. `random off` stops it.", G,
     cmd_random},
    {"tsume", "", "toggle tsume mode (only checks)",
     "Tsume mode: when not in check, the computer only considers moves that give check.", G, cmd_toggle},
    {"post", "", "toggle showing the principal variation",
     "Shows depth, score (100 = one pawn for the computer), time, nodes and the expected line while thinking.",
     G, cmd_toggle},
    {"beep", "", "toggle beeping after each move", "Beeps after each of the computer's moves (default on).", G,
     cmd_toggle},
    {"material", "", "toggle the material flag",
     "GNU Shogi's draw on insufficient material (no pawns, both sides less than a rook). Kept as a switch: in\n"
     "shogi pieces in hand can always mate, so Hisha never declares such a draw.", G, cmd_toggle},
    {"rcptr", "", "toggle recapture mode",
     "GNU Shogi's recapture extension switch. Kept as a switch: Hisha's search extends and orders recaptures\n"
     "itself.", G, cmd_toggle},
    {"contempt", "[CP]", "set the contempt (draw value)",
     "How many centipawns a draw counts as a loss for the computer (positive: it avoids draws).", G, cmd_contempt},
    {"Awindow", "[CP]", "set the alpha window",
     "GNU Shogi's alpha search window (default score + 90). Kept: Hisha's search sizes its aspiration windows\n"
     "itself; the value is shown by help.", G, cmd_window},
    {"Bwindow", "[CP]", "set the beta window", "GNU Shogi's beta search window (default score - 90). Kept as for Awindow.",
     G, cmd_window},
    {"xwndw", "[CP]", "set the evaluation window",
     "GNU Shogi's window deciding whether a position is scored fully or estimated. Kept: Hisha always scores\n"
     "fully.", G, cmd_window},
    {"debuglevel", "[N]", "set the debugging output level", "Sets the level of debugging output (0: none).", G,
     cmd_debuglevel},
    {"coords", "", "toggle coordinates on the board", "Shows or hides the file numbers and rank letters.", G,
     cmd_toggle},
    {"reverse", "", "turn the board round", "Shows the board from White's side (Black's pieces at the top).", G,
     cmd_toggle},
    {"rv", "", "turn the board round", "Same as reverse.", G, cmd_toggle},
    {"notation", "[gnu|western|usi|kif]", "choose how moves are written",
     "gnu: 7g7f 2d2c+ P*5e (default); western: P-7f Bx3c+ P*5e; usi: as gnu; kif: ▲７六歩. Any of them is\n"
     "accepted as input at any time.", NO_FLAGS, cmd_notation},
    {"pieces", "[ascii|letters|kanji]", "choose how the board shows pieces",
     "ascii: bP/wP cells like the manual's diagrams (default); letters: P/p, upper case Black; kanji: 歩 and\n"
     "v歩 for White's pieces, 玉 for Black's king and 王 for White's.", NO_FLAGS, cmd_pieces},
    {"alg", "", "algebraic input (always on)",
     "GNU Shogi's switch for algebraic input. Every notation is accepted at any time, so there is nothing to\n"
     "switch.", G, cmd_alg},
    // --- files
    {"save", "[FILE]", "save the game (format from the extension)",
     "Saves the game. The format follows the file name: .kif .kifu .ki2 .csa .psn .sfen .usi; any other name\n"
     "(game.sav, shogi.000) gets GNU Shogi's own save file, which gnushogi's get reads. Without a name it uses\n"
     "-s or asks.", G, cmd_save},
    {"get", "[FILE]", "load a game from a file",
     "Loads a game record in any format Hisha reads (KIF, KI2, CSA, PSN, xshogi, Western, SFEN, USI, GNU\n"
     "Shogi's save file) and replays it. Without a name it uses -l or asks.", G, cmd_get},
    {"load", "FILE", "load a game from a file (same as get)", "Same as get.", NO_FLAGS, cmd_get},
    {"xsave", "[FILE]", "save the position as an xshogi position file",
     "Writes the position in xshogi's Save Position format.", GX, cmd_xsave},
    {"xget", "[FILE]", "read an xshogi position file", "Sets up the position of an xshogi position file.", GX,
     cmd_xget},
    {"bsave", "[FILE]", "save the game as an opening book",
     "Appends the game's moves to a GNU Shogi text book (a # line, then the moves).", GX, cmd_bsave},
    {"list", "[FILE]", "write the game with depth, nodes and time",
     "Writes the moves with the search depth, nodes, time and score of each to shogi.lst (or FILE).", G,
     cmd_list},
    // --- information
    {"bd", "", "show the board", "Shows the board, the pieces in hand and the clocks.", G, cmd_bd},
    {"help", "[COMMAND]", "list the commands, or explain one", "help: every command; help NAME: one.", G, cmd_help},
    {"rules", "[TOPIC]", "the rules of shogi",
     "The rules by topic: pieces, promotion, drops, prohibited, check, draws, handicaps.", NO_FLAGS, cmd_rules},
    {"p", "", "score the position piece by piece",
     "Evaluates the board and shows the value of each piece (what the score loses without it) and the total.",
     GX, cmd_p},
    {"debug", "[bP|wN]", "value of a piece on every square",
     "Asks for a piece as colour and letter (bP, wN) and shows the evaluation with it on each empty square.",
     GX, cmd_debug},
    {"test", "", "speed tests of move generation and evaluation",
     "Times legal-move generation, capture generation and evaluation on the current position.", GX, cmd_test},
    {"movenow", "", "move now", "Same as ?.", NO_FLAGS, cmd_move_now},
    {"moves", "", "speed test (as test)", "Same as test, once.", GX, cmd_test},
};
// clang-format on

bool iequal(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

}  // namespace

std::span<const Command> commands() { return COMMANDS; }

const Command* find_command(std::string_view name) {
    for (const Command& c : COMMANDS)
        if (c.name == name)
            return &c;
    return nullptr;
}

const Command* find_command_folded(std::string_view name) {
    for (const Command& c : COMMANDS)
        if (iequal(c.name, name))
            return &c;
    return nullptr;
}

}  // namespace hisha::play
