// The interactive program's commands as a data table: name, arguments, one-line summary,
// longer help, flags and handler. The table drives parsing (the controller looks a word up
// here before trying it as a move), `help` (one line per command) and `help CMD`. The
// names and meanings are GNU Shogi's (manual, COMMANDS), plus the modern ones: load, sfen,
// handicap, analyze, solve, notation, pieces, rules.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hisha::play {

class Controller;

struct CommandArgs {
    std::string name;                // the command word as typed
    std::string rest;                // everything after it
    std::vector<std::string> words;  // `rest` split at blanks
};

enum CommandFlags : unsigned {
    NO_FLAGS = 0,
    X_DISABLED = 1,  // GNU Shogi answers it as an illegal move in xshogi mode
    GNU = 2,         // in GNU Shogi's COMMANDS table
};

struct Command {
    std::string_view name;
    std::string_view args;     // "[moves minutes]"
    std::string_view summary;  // one line for `help`
    std::string_view details;  // `help NAME`
    unsigned flags;
    void (*handler)(Controller&, const CommandArgs&);
};

std::span<const Command> commands();
/// The command of that exact name (GNU names are case-sensitive: Awindow, Bwindow).
const Command* find_command(std::string_view name);
/// The same, ignoring case (tried only when the word is no move).
const Command* find_command_folded(std::string_view name);

// --- handlers, grouped by file
// commands_game.cpp: the game and whose turn it is
void cmd_new(Controller&, const CommandArgs&);
void cmd_go(Controller&, const CommandArgs&);
void cmd_force(Controller&, const CommandArgs&);
void cmd_black(Controller&, const CommandArgs&);
void cmd_white(Controller&, const CommandArgs&);
void cmd_both(Controller&, const CommandArgs&);
void cmd_switch(Controller&, const CommandArgs&);
void cmd_undo(Controller&, const CommandArgs&);
void cmd_remove(Controller&, const CommandArgs&);
void cmd_hint(Controller&, const CommandArgs&);
void cmd_edit(Controller&, const CommandArgs&);
void cmd_setup(Controller&, const CommandArgs&);
void cmd_handicap(Controller&, const CommandArgs&);
void cmd_sfen(Controller&, const CommandArgs&);
void cmd_move_now(Controller&, const CommandArgs&);
void cmd_quit(Controller&, const CommandArgs&);
void cmd_analyze(Controller&, const CommandArgs&);
void cmd_solve(Controller&, const CommandArgs&);
// commands_options.cpp: flags, levels and clocks
void cmd_toggle(Controller&, const CommandArgs&);
void cmd_random(Controller&, const CommandArgs&);
void cmd_hard(Controller&, const CommandArgs&);
void cmd_level(Controller&, const CommandArgs&);
void cmd_time(Controller&, const CommandArgs&);
void cmd_depth(Controller&, const CommandArgs&);
void cmd_hashdepth(Controller&, const CommandArgs&);
void cmd_window(Controller&, const CommandArgs&);
void cmd_contempt(Controller&, const CommandArgs&);
void cmd_debuglevel(Controller&, const CommandArgs&);
void cmd_notation(Controller&, const CommandArgs&);
void cmd_pieces(Controller&, const CommandArgs&);
void cmd_alg(Controller&, const CommandArgs&);
// commands_files.cpp: records, positions, books and lists
void cmd_save(Controller&, const CommandArgs&);
void cmd_get(Controller&, const CommandArgs&);
void cmd_xsave(Controller&, const CommandArgs&);
void cmd_xget(Controller&, const CommandArgs&);
void cmd_bsave(Controller&, const CommandArgs&);
void cmd_list(Controller&, const CommandArgs&);
// commands_info.cpp: what the program shows
void cmd_bd(Controller&, const CommandArgs&);
void cmd_help(Controller&, const CommandArgs&);
void cmd_rules(Controller&, const CommandArgs&);
void cmd_p(Controller&, const CommandArgs&);
void cmd_debug(Controller&, const CommandArgs&);
void cmd_test(Controller&, const CommandArgs&);

/// The lines `help` prints: one per command, then the current settings.
std::vector<std::string> help_lines(const Controller& c);

}  // namespace hisha::play
