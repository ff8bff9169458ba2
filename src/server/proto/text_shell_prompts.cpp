// The text protocol's prompts: the answers to "Play ...? <p,o,n,y>", "Promote? (y/n)", the
// resignation's confirmation, a message left for an absent player, and the "-- More --" pager.
// A line that answers no prompt ends it and runs as a command (leave_prompt).
#include <algorithm>
#include <utility>

#include "notation/western.h"
#include "server/proto/text_shell.h"
#include "server/proto/text_shell_words.h"

namespace hisha::server::proto {

using service::LiveGame;
using namespace text_words;

// A line that answers no question ends it, as the answer `message` tells, and runs as the
// command it is: a player who types BOARD at a prompt wants the board, not the prompt again.
void TextShell::leave_prompt(const std::string& message, std::string_view text) {
    mode_ = Mode::Command;
    if (!message.empty())
        line(message);
    dispatch(text);
}

void TextShell::answer(std::string_view text) {
    std::string a = upper(text);
    while (!a.empty() && a.back() == ' ' && a.size() > 1)
        a.pop_back();
    switch (mode_) {
    case Mode::ConfirmPlay: return answer_play(a, text);
    case Mode::Promote: return answer_promote(a, text);
    case Mode::ConfirmResign: return answer_resign(a, text);
    case Mode::LeaveMessage: return answer_message(a, text);
    case Mode::More: return answer_more(a, text);
    case Mode::Command: break;
    }
}

// Play ...? <p,o,n,y>: the board after the move from either side, play it, or not.
void TextShell::answer_play(const std::string& a, std::string_view text) {
    if (a == "P" || a == "O") {
        const LiveGame* g = svc_.game(current_);
        if (!g)
            return;
        auto pos = g->game.position().clone();
        if (pending_board_)
            pos->play(pending_board_);
        bool white = my_view_is_white(*g);
        send(board_text(*pos, a == "P" ? white : !white));
        return;
    }
    if (a == "Y" || a == "YES") {
        mode_ = Mode::Command;
        return do_play();
    }
    if (a == "N" || a == "NO") {
        mode_ = Mode::Command;
        return line("Move not made.");
    }
    leave_prompt("Move not made.", text);
}

// Promote? y/n, or the promotion marks of the Western notation: + promotes, = does not.
void TextShell::answer_promote(std::string a, std::string_view text) {
    if (a == "+")
        a = "Y";
    else if (a == "=")
        a = "N";
    if (a != "Y" && a != "N" && a != "YES" && a != "NO")
        return leave_prompt("Move not made.", text);
    const LiveGame* g = svc_.game(current_);
    mode_ = Mode::Command;
    if (!g)
        return error("the game is gone");
    core::Move m = pending_promote_;
    if (a[0] == 'Y')
        m = g->game.position().make_move(m.from(), m.to(), true);
    pending_board_ = m;
    pending_display_ = notation::write_western(g->game.position(), m);
    if (g->row.tc.realtime())
        return do_play();
    mode_ = Mode::ConfirmPlay;
}

// RESIGN's (yes/no): only a whole "yes" resigns.
void TextShell::answer_resign(const std::string& a, std::string_view text) {
    mode_ = Mode::Command;
    if (a != "YES")
        return a == "NO" || a == "N" || a == "Y" || a.empty() ? line("Resignation not made.")
                                                              : leave_prompt("Resignation not made.", text);
    if (auto r = svc_.resign(user_, current_); !r)
        return error(r.error());
    line("You resigned game " + std::to_string(current_) + ".");
}

// Leave the message for the absent player?
void TextShell::answer_message(const std::string& a, std::string_view text) {
    mode_ = Mode::Command;
    if (a != "YES" && a != "Y")
        return a == "NO" || a == "N" || a.empty() ? line("Message not left.") : leave_prompt("Message not left.", text);
    auto r = pending_gid_ ? svc_.say(user_, pending_gid_, pending_text_, true)
                          : svc_.tell(user_, pending_to_, pending_text_, true);
    if (!r)
        return error(r.error());
    line("Message left for " + pending_to_ + ".");
}

// -- More -- (p,o,y/<space>,<enter>,q/n): a board, a page, a line, or the end of the listing.
void TextShell::answer_more(const std::string& a, std::string_view text) {
    if (a == "P" || a == "O") {
        if (const LiveGame* g = svc_.game(pager_gid_)) {
            // The board after the moves listed so far.
            int shown = 0;
            for (std::size_t i = 0; i < pager_pos_ && i < pager_.size(); ++i)
                shown += pager_[i].size() > 5 && pager_[i][4] == '.' ? 1 : 0;
            auto pos = service::Service::position_at(g->row, shown);
            bool stm_white = pos->side_to_move() == core::WHITE;
            send(board_text(*pos, a == "P" ? stm_white : !stm_white));
        }
        return;
    }
    if (a == "Q" || a == "N") {
        mode_ = Mode::Command;
        pager_.clear();
        pager_done_ = {};
        return;
    }
    if (a.empty()) {
        if (pager_pos_ < pager_.size())
            line(pager_[pager_pos_++]);
    } else if (a == "Y" || a == " " || a == "") {
        for (int i = 0; i < page_lines && pager_pos_ < pager_.size(); ++i)
            line(pager_[pager_pos_++]);
    } else {
        pager_.clear();
        pager_done_ = {};
        return leave_prompt("", text);
    }
    if (pager_pos_ >= pager_.size()) {
        mode_ = Mode::Command;
        auto done = std::move(pager_done_);
        pager_done_ = {};
        if (done)
            done();
    }
}

void TextShell::page(std::vector<std::string> lines, std::function<void()> done) {
    // A screenful, or all of it when no more than one line would be left for the next one (a
    // More prompt for a single last line hides it for nothing).
    std::size_t first = std::min<std::size_t>(lines.size(), std::size_t(page_lines));
    if (lines.size() <= first + 1)
        first = lines.size();
    for (std::size_t i = 0; i < first; ++i)
        line(lines[i]);
    if (first >= lines.size()) {
        if (done)
            done();
        return;
    }
    pager_ = std::move(lines);
    pager_pos_ = first;
    pager_done_ = std::move(done);
    mode_ = Mode::More;
}

}  // namespace hisha::server::proto
