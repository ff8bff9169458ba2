// Commands about the game and whose turn it is.
#include <optional>
#include <sstream>

#include "board_editor.h"
#include "commands.h"
#include "controller.h"
#include "core/handicap.h"
#include "core/movegen.h"
#include "notation/coordinate.h"
#include "notation/usi.h"
#include "solver.h"

namespace hisha::play {

using namespace hisha::core;

namespace {

bool xshogi(const Controller& c) { return c.mode() == DisplayMode::Xshogi; }

void show_board_unless_x(Controller& c) {
    if (!xshogi(c))
        c.ui().show_board(c.session());
}

// Gives `side` the move in a position where nothing has been played yet (xshogi's set-ups
// say who moves only through black/white).
void give_move_to(Controller& c, Color side) {
    Session& s = c.session();
    if (s.ply_count() != 0 || s.side_to_move() == side)
        return;
    std::istringstream in(s.position().sfen(false));
    std::string board, stm, hands;
    in >> board >> stm >> hands;
    (void)s.set_position(board + (side == BLACK ? " b " : " w ") + hands + " 1");
}

const char* color_name(Color c) { return c == BLACK ? "Black" : "White"; }

}  // namespace

void cmd_new(Controller& c, const CommandArgs&) {
    c.session().new_game();
    show_board_unless_x(c);
}

void cmd_go(Controller& c, const CommandArgs&) {
    Session& s = c.session();
    if (s.game().over()) {
        c.ui().message("The game is over (new, undo or get).");
        return;
    }
    s.options().computer = s.side_to_move();
    s.options().force = false;
    c.start_thinking();
}

void cmd_switch(Controller& c, const CommandArgs& a) { cmd_go(c, a); }

void cmd_force(Controller& c, const CommandArgs&) {
    Options& o = c.session().options();
    o.force = xshogi(c) ? true : !o.force;
    o.both = false;
    c.session().clocks().halt();
    if (!xshogi(c))
        c.ui().message(o.force ? "Force mode: enter the moves of both sides." : "Force mode off.");
}

namespace {

// black and white: the player takes `player`, the program the other side. In xshogi mode
// that side also gets the move; the other displays say who plays what.
void player_takes(Controller& c, Color player, const char* message) {
    Options& o = c.session().options();
    o.computer = ~player;
    o.force = false;
    if (xshogi(c))
        give_move_to(c, player);
    else
        c.ui().message(message);
}

}  // namespace

void cmd_black(Controller& c, const CommandArgs&) { player_takes(c, BLACK, "I play White, you play Black."); }

void cmd_white(Controller& c, const CommandArgs&) {
    player_takes(c, WHITE, "I play Black, you play White (go: I move now).");
}

void cmd_both(Controller& c, const CommandArgs&) {
    Options& o = c.session().options();
    o.both = !o.both;
    o.force = false;
    if (o.both)
        c.start_thinking();
    else if (!xshogi(c))
        c.ui().message("I play " + std::string(color_name(o.computer)) + " again.");
}

void cmd_undo(Controller& c, const CommandArgs&) {
    if (!c.session().undo()) {
        c.ui().message("Nothing to undo.");
        return;
    }
    show_board_unless_x(c);
}

void cmd_remove(Controller& c, const CommandArgs&) {
    Session& s = c.session();
    if (s.ply_count() == 0) {
        c.ui().message("Nothing to remove.");
        return;
    }
    s.undo();
    if (s.ply_count() > 0)
        s.undo();
    show_board_unless_x(c);
}

void cmd_hint(Controller& c, const CommandArgs&) {
    Move m = c.predicted_move();
    c.ui().hint(m.is_ok() ? c.session().move_text(c.session().position(), m) : "", m);
}

void cmd_move_now(Controller& c, const CommandArgs&) {
    if (!c.searching())
        c.ui().message("I am not thinking.");
    c.interrupt();
}

void cmd_quit(Controller& c, const CommandArgs&) { c.request_quit(); }

void cmd_edit(Controller& c, const CommandArgs&) {
    Session& s = c.session();
    BoardEditor ed(s.position());
    for (const char* line : BoardEditor::HELP)
        c.ui().message(line);
    bool done = false;
    while (!done) {
        auto line = c.ask(ed.color() == BLACK ? "Black> " : "White> ");
        if (!line)
            return;
        std::istringstream in(*line);
        for (std::string token; !done && in >> token;) {
            auto r = ed.apply(token);
            if (!r)
                c.ui().message(r.error());
            else if (*r == BoardEditor::Step::Done)
                done = true;
        }
    }
    if (auto r = s.set_position(ed.sfen(s.side_to_move())); !r) {
        c.ui().message("Illegal position: " + r.error());
        return;
    }
    show_board_unless_x(c);
}

// Reads the nine ranks of `setup` (all nine even after a bad one, so that none is taken for a
// command); empty lines before the first are skipped (GNU Shogi 1.4.2 drops the line after
// `setup`, so its scripts may hold an empty one there).
std::optional<std::string> read_setup_board(Controller& c) {
    std::string board, error;
    for (int rank = 0; rank < 9;) {
        std::string name(1, char('a' + rank));
        auto line = c.ask("Setup rank " + name + ": ");
        if (!line) {
            c.ui().message("setup: the input ended after " + std::to_string(rank) + " of 9 ranks; nothing changed");
            return std::nullopt;
        }
        if (rank == 0 && line->empty())
            continue;
        auto r = setup_rank(*line);
        if (!r && error.empty())
            error = "setup: rank " + name + ": " + r.error() + "; nothing changed";
        board += (rank ? "/" : "") + r.value_or("");
        ++rank;
    }
    if (!error.empty()) {
        c.ui().message(error);
        return std::nullopt;
    }
    return board;
}

void cmd_setup(Controller& c, const CommandArgs&) {
    auto board = read_setup_board(c);
    if (!board)
        return;
    Session& s = c.session();
    if (auto r = s.set_position(*board + " b - 1"); !r) {
        c.ui().message("setup: illegal position: " + r.error() + "; nothing changed");
        return;
    }
    s.options().force = false;  // a new game, as GNU Shogi's setup starts one (and as `new` does)
    s.options().both = false;
    show_board_unless_x(c);
    c.ui().message("Setup successful");
}

void cmd_handicap(Controller& c, const CommandArgs& a) {
    std::optional<Handicap> h = a.rest.empty() ? std::nullopt : handicap_from_name(a.rest);
    if (!h) {
        c.ui().message(a.rest.empty() ? "handicap NAME (rules handicaps lists the names)"
                                      : "Unknown handicap '" + a.rest + "' (rules handicaps lists the names)");
        return;
    }
    c.session().new_game(*h);
    c.ui().message("Handicap: " + std::string(handicap_info(*h).english) + "; White moves first.");
    show_board_unless_x(c);
    if (c.session().computer_to_move())
        c.start_thinking();
}

void cmd_sfen(Controller& c, const CommandArgs& a) {
    Session& s = c.session();
    if (a.rest.empty()) {
        c.ui().message(s.position().sfen());
        return;
    }
    auto rec = notation::parse_usi_position(a.rest);
    if (!rec) {
        c.ui().message("Bad SFEN: " + rec.error().to_string());
        return;
    }
    if (auto r = s.load_record(*rec); !r) {
        c.ui().message("Bad position: " + r.error());
        return;
    }
    show_board_unless_x(c);
}

void cmd_analyze(Controller& c, const CommandArgs& a) {
    engine::Limits l;
    for (std::size_t i = 0; i < a.words.size(); ++i) {
        int v = i + 1 < a.words.size() ? std::atoi(a.words[i + 1].c_str()) : std::atoi(a.words[i].c_str());
        if (a.words[i] == "depth" && i + 1 < a.words.size())
            l.depth = v, ++i;
        else if ((a.words[i] == "time" || a.words[i] == "movetime") && i + 1 < a.words.size())
            l.movetime = v * 1000, ++i;
        else if (v > 0)
            l.depth = v;
    }
    if (!l.depth && !l.movetime)
        l.infinite = true;
    if (c.session().game().over() || !has_legal_move(c.session().position())) {
        c.ui().message("No legal move to analyse.");
        return;
    }
    c.ui().message(l.infinite ? "Analysing; press Enter to stop." : "Analysing.");
    c.start_analysis(l);
}

void cmd_solve(Controller& c, const CommandArgs& a) {
    double seconds = 10.0;
    bool tsume = false;
    for (const auto& w : a.words) {
        if (w == "tsume")
            tsume = true;
        else if (std::atof(w.c_str()) > 0)
            seconds = std::atof(w.c_str());
    }
    MateReport r = solve_mate(c.session(), seconds, tsume);
    c.ui().message(r.text);
}

}  // namespace hisha::play
