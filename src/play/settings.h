// What the command line sets for the interactive program (GNU Shogi's options), and the
// per-game options that the commands change.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "board_view.h"
#include "core/types.h"
#include "time_control.h"

namespace hisha::play {

enum class DisplayMode { Raw, Curses, Xshogi };

/// The time control without time arguments. GNU Shogi asks for none: the raw and curses
/// displays think at most 15 seconds a move (its response time), xshogi's 40 moves in 5:00.
TimeControl default_time_control(DisplayMode m);

/// The command line, parsed (src/app/gnushogi_args).
struct Settings {
    DisplayMode mode = DisplayMode::Xshogi;
    TimeControl time;                // Kind::None: default_time_control(mode)
    bool input_terminal = false;     // standard input is a terminal (raw mode asks Promote? there)
    bool detect_usi = false;         // xshogi mode by default (pipes, no -X): a first line `usi` starts USI
    std::string book_file;           // -b
    std::optional<bool> ponder;      // a / -a (think on the opponent's time)
    bool use_hash = true;            // h / -h
    std::string hash_path;           // the experience file (default Experience::default_path())
    std::optional<int> create_hash;  // -c size
    bool hash_stats = false;         // -t
    std::string load_path;           // -l: the file `get` and `xget` read
    std::string save_path;           // -s: the file `save` writes
    int tt_mb = 0;                   // -T: transposition table (0: the engine's default)
    std::optional<int> xwndw;        // -x
    std::vector<std::string> notes;  // what the options without a modern meaning do now
};

enum class MoveNotation { Gnu, Western, Usi, Kif };
const char* notation_name(MoveNotation n);
/// The notation `notation` names ("gnu" or "coordinate", "western" or "hodges", "usi", "kif" or "ki2" or "japanese").
std::optional<MoveNotation> notation_named(std::string_view name);

/// The options the commands toggle and set (GNU Shogi's flags).
struct Options {
    core::Color computer = core::WHITE;  // the side the program plays
    bool force = false;                  // both sides' moves are typed
    bool both = false;                   // the program plays both sides
    bool easy = true;                    // easy mode: no thinking on the opponent's time
    bool beep = true;
    bool random = false;
    bool post = false;     // show the principal variation while thinking
    bool use_hash = true;  // consult the experience file
    bool book = true;
    bool tsume = false;  // only checking moves (when not in check)
    bool material = false;
    bool rcptr = true;
    bool gamein = false;
    int depth = 0;  // 0: no limit
    int contempt = 0;
    int awindow[core::COLOR_NB] = {90, 90};  // GNU's alpha window of each side
    int bwindow[core::COLOR_NB] = {90, 90};  // and its beta window
    int xwndw = 90;
    int debuglevel = 0;
    int hash_min_depth = 4;  // `hashdepth`: minimum depth of a used entry
    int hash_moves = 40;     // `hashdepth`: moves from the start during which it is used
    MoveNotation notation = MoveNotation::Gnu;
    BoardStyle board;
};

}  // namespace hisha::play
