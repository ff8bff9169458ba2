// CsaShell: lines end with LF only; replies follow shogi-server's wording.
#include "server/proto/csa_shell.h"

#include <cctype>

#include "core/version.h"
#include "notation/csa.h"
#include "server/proto/game_record.h"
#include "server/service/log.h"
#include "server/service/utc_text.h"

namespace hisha::server::proto {

using service::Event;
using service::EventKind;
using service::LiveGame;

namespace {

constexpr const char* CSA_PIECES[] = {"",   "FU", "KY", "KE", "GI", "KA", "HI", "KI",
                                      "OU", "TO", "NY", "NK", "NG", "UM", "RY"};

bool valid_csa_name(std::string_view s) {
    if (s.empty() || s.size() > 32)
        return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.' && c != '@')
            return false;
    return true;
}

}  // namespace

void CsaShell::line(const std::string& text) {
    if (!closed_)
        out_(text + "\n");
}

std::string CsaShell::game_id(const LiveGame& g) {
    std::string name = g.row.csa_game_name.empty() ? g.row.tc.describe() : g.row.csa_game_name;
    return "hisha-" + std::to_string(g.row.id) + "+" + name + "+" + g.row.black + "+" + g.row.white + "+"
         + service::utc_text(g.row.created, "%Y%m%d%H%M%S");
}

std::string CsaShell::position_block(const core::Position& pos) {
    std::string out;
    for (int r = 0; r < 9; ++r) {
        out += "P" + std::to_string(r + 1);
        for (int f = 8; f >= 0; --f) {
            core::Piece pc = pos.piece_on(core::make_square(core::File(f), core::Rank(r)));
            if (pc == core::NO_PIECE)
                out += " * ";
            else
                out += std::string(core::color_of(pc) == core::BLACK ? "+" : "-") + CSA_PIECES[core::type_of(pc)];
        }
        out += "\n";
    }
    for (core::Color c : {core::BLACK, core::WHITE}) {
        std::string hand;
        for (core::PieceType pt : core::HAND_ORDER)
            for (int i = 0; i < pos.hand(c).count(pt); ++i)
                hand += std::string("00") + CSA_PIECES[pt];
        if (!hand.empty())
            out += std::string("P") + (c == core::BLACK ? "+" : "-") + hand + "\n";
    }
    out += pos.side_to_move() == core::BLACK ? "+\n" : "-\n";
    return out;
}

void CsaShell::on_line_too_long() { line("##[ERROR] line too long"); }

void CsaShell::on_disconnect() {
    closed_ = true;
    if (!user_.empty()) {
        svc_.csa_cancel(user_);
        // When the server closed it (shutting down) the game stays as it is, to go on after the
        // restart; a player who left loses it.
        bool left = !svc_.shutting_down();
        if (left && game_ && (state_ == State::Playing || state_ == State::Resuming))
            svc_.csa_away(user_, game_);  // lost now, or after the reconnect grace
        else if (left && game_ && state_ == State::Offered)
            svc_.forfeit(user_, game_, core::EndReason::Disconnect, "disconnected");
        svc_.disconnect(shared_from_this());
    }
}

// (A game in play ends as when the player disconnects.)
void CsaShell::farewell(const std::string& why) { line("##[ERROR] " + why); }

void CsaShell::on_line(std::string_view text) {
    if (closed_)
        return;
    if (text.empty()) {  // keep-alive: answered with an empty line
        line("");
        return;
    }
    if (text == " " || text.starts_with("%%%"))
        return;  // ignored (shogi-server; 81Dojo)
    if (state_ == State::Connected) {
        if (text.starts_with("LOGIN "))
            return login(text);
        if (text == "LOGOUT") {
            line("LOGOUT:completed");
            return close_();
        }
        return line("##[ERROR] please LOGIN <name> <password> first");
    }
    if (text.starts_with("%%"))
        return command(text);
    if (text == "LOGOUT") {
        if (state_ == State::Playing)
            return line("##[ERROR] LOGOUT is not allowed during a game");
        line("LOGOUT:completed");
        return close_();
    }
    if (text.starts_with("CHALLENGE"))
        return line("CHALLENGE ACCEPTED");
    if (state_ == State::Offered) {
        const LiveGame* g = svc_.game(game_);
        if (text.starts_with("AGREE")) {
            if (auto r = svc_.agree(user_, game_); !r)
                line("##[ERROR] " + r.error());
            return;
        }
        if (text.starts_with("REJECT")) {
            (void)g;
            if (auto r = svc_.reject(user_, game_); !r)
                line("##[ERROR] " + r.error());
            return;
        }
        return line("##[ERROR] AGREE or REJECT the game first");
    }
    if (state_ == State::Resuming) {
        if (text.starts_with("AGREE")) {
            state_ = State::Playing;
            const LiveGame* g = svc_.game(game_);
            line("START:" + game_id(*g));
            const auto& log = g->log;  // moves made while we agreed
            for (std::size_t i = std::size_t(resume_plies_); i < log.size(); ++i)
                if (!log[i].csa.empty() && log[i].csa[0] != '%')
                    line(log[i].csa + ",T" + std::to_string(log[i].spent_ms / 1000));
            return;
        }
        if (text.starts_with("REJECT"))
            return svc_.forfeit(user_, game_, core::EndReason::Resignation, "rejected its resumption");
        return line("##[ERROR] AGREE or REJECT the game first");
    }
    if (state_ == State::Playing)
        return game_line(text);
    line("##[ERROR] unknown command");
}

void CsaShell::login(std::string_view text) {
    // LOGIN <name> <password> [x1]; the password may be "<game name>,<secret>".
    std::vector<std::string> w;
    std::size_t i = 0;
    while (i < text.size()) {
        auto j = text.find(' ', i);
        if (j == std::string_view::npos)
            j = text.size();
        if (j > i)
            w.emplace_back(text.substr(i, j - i));
        i = j + 1;
    }
    if (w.size() < 3 || w.size() > 4 || (w.size() == 4 && w[3] != "x1") || !valid_csa_name(w[1]) || w[2].size() > 64)
        return line("LOGIN:incorrect");
    std::string name = w[1], password = w[2], game_name = "default-1500-0";
    if (auto comma = password.find(','); comma != std::string::npos) {
        game_name = password.substr(0, comma);
        password = password.substr(comma + 1);
    }
    int color = -1;
    if (game_name.ends_with("-B") || game_name.ends_with("-W")) {
        color = game_name.back() == 'B' ? 0 : 1;
        game_name.resize(game_name.size() - 2);
    }
    // An unknown name is registered (as on Floodgate) only when the operator opened registration
    // (--csa-auto-register on); otherwise it is a failed login like a wrong password, limited alike.
    bool registering = !svc_.user(name) && svc_.config().csa_auto_register;
    pause_input();  // the next lines wait for the password check
    std::weak_ptr<CsaShell> weak = shared_from_this();
    x1_ = w.size() == 4;
    auto done = [weak, game_name, color](const service::AuthReply& r) {
        auto self = weak.lock();
        if (!self || self->closed_)
            return;
        if (r.ok()) {
            self->logged_in(r.user, game_name, color);
        } else {
            self->line("LOGIN:incorrect");
            if (r.status != service::AuthReply::Status::Refused)  // why, when it is not the password
                self->line("##[ERROR] " + r.error);
        }
        self->resume_input();
    };
    if (registering)
        svc_.start_register(peer(), name, password, std::move(done));
    else
        svc_.start_login(peer(), name, password, std::move(done));
}

void CsaShell::logged_in(const UserRow& u, const std::string& game_name, int color) {
    user_ = u.name;
    svc_.connect(user_, shared_from_this(), "csa", peer());
    line("LOGIN:" + user_ + " OK");
    if (std::int64_t back = svc_.csa_return(user_)) {
        // Back within the reconnect grace: the game again, with the moves so far.
        if (x1_)
            line("##[LOGIN] +OK x1");
        game_ = back;
        game_name_ = game_name;
        color_pref_ = color;
        state_ = State::Resuming;
        const LiveGame* g = svc_.game(game_);
        resume_plies_ = int(g->row.moves.size());
        return send_summary(*g);
    }
    if (x1_) {
        line("##[LOGIN] +OK x1");
        state_ = State::Waiting;
        return;
    }
    game_name_ = game_name;
    color_pref_ = color;
    state_ = State::Waiting;
    if (auto r = svc_.csa_wait(user_, game_name_, color_pref_); !r) {
        line("##[ERROR] " + r.error());
        state_ = State::Waiting;
    }
}

void CsaShell::wait_again() {
    game_ = 0;
    state_ = State::Waiting;
    if (!x1_ && !game_name_.empty())
        (void)svc_.csa_wait(user_, game_name_, color_pref_);
}

bool CsaShell::my_turn() const {
    const LiveGame* g = const_cast<service::Service&>(svc_).game(game_);
    return g && g->active() && g->color_of(user_) == g->to_move();
}

void CsaShell::game_line(std::string_view text) {
    // "<move>[,T<n>][,'<comment>]": a time the client gives is not used (the server's clock
    // counts); the comment (Floodgate's "'* <score> <pv>") is everything after ",'".
    std::string_view move = text, comment;
    if (auto comma = move.find(','); comma != std::string_view::npos)
        move = move.substr(0, comma);
    if (auto quote = text.find(",'"); quote != std::string_view::npos)
        comment = text.substr(quote + 2);
    if (std::string why = service::Service::check_comment(comment); !why.empty()) {
        log_event("csa_comment_dropped", {{"user", user_}, {"why", why}});
        if (x1_)
            line("##[ERROR] comment not kept: " + why);
        comment = {};
    }
    if (move == "%TORYO") {
        if (auto r = svc_.resign(user_, game_); !r)
            line("##[ERROR] " + r.error());
        return;
    }
    if (move == "%KACHI") {
        if (!my_turn())
            return line("##[ERROR] not your turn");
        (void)svc_.declare(user_, game_);  // a wrong declaration loses; the end comes as an event
        return;
    }
    if (move.starts_with("%")) {  // shogi-server: any other special is an illegal move
        (void)svc_.play(user_, game_, "%", true);
        return;
    }
    if (!looks_like_csa_move(move))
        return line("##[ERROR] malformed move: " + std::string(move));
    if (!my_turn()) {
        deferred_move_ = std::string(move);  // shogi-server defers a move sent out of turn
        if (!comment.empty())
            deferred_move_ += ",'" + std::string(comment);
        return;
    }
    const LiveGame* g = svc_.game(game_);
    core::Color me = *g->color_of(user_);
    if ((move[0] == '+') != (me == core::BLACK)) {
        (void)svc_.play(user_, game_, "%", true);  // a move for the other side: illegal
        return;
    }
    auto r = svc_.play(user_, game_, move, true, comment);
    // Another server sharing the database wrote the game first (a timer, a "seen" update): the
    // game is reloaded by the next call, which plays the move if it is still this player's turn.
    if (!r && r.error().find("changed on another server") != std::string::npos && svc_.game(game_)
        && svc_.game(game_)->active())
        r = svc_.play(user_, game_, move, true, comment);
    if (!r && svc_.game(game_) && svc_.game(game_)->active())
        line("##[ERROR] " + r.error());  // not played and the game goes on: say why
}

void CsaShell::command(std::string_view text) {
    std::string cmd(text.substr(0, text.find(' ')));
    std::string arg = text.find(' ') == std::string_view::npos ? "" : std::string(text.substr(text.find(' ') + 1));
    if (!x1_)
        return line("##[ERROR] x1 commands need LOGIN <name> <password> x1");
    if (cmd == "%%WHO") {
        for (auto& o : svc_.who("*"))
            line("##[WHO] " + o.name + " " + o.protocol);
        return line("##[WHO] +OK");
    }
    if (cmd == "%%LIST") {
        for (auto* g : svc_.active_games())
            line("##[LIST] " + game_id(*g));
        return line("##[LIST] +OK");
    }
    if (cmd == "%%MONITOR2ON")
        return monitor_on(arg);
    if (cmd == "%%MONITOR2OFF")
        return monitor_off(arg);
    if (cmd == "%%SHOW") {
        const LiveGame* g = game_named(arg);
        if (!g)
            return line("##[ERROR] no such game");
        std::string tag = "##[SHOW] " + game_id(*g) + " ";
        line(tag + "Name+:" + g->row.black);
        line(tag + "Name-:" + g->row.white);
        line(tag + "Time:" + g->row.tc.describe());
        for (auto& m : g->log)
            line(tag + m.csa + ",T" + std::to_string(m.spent_ms / 1000));
        line(tag + "Status:" + (g->finished() ? "finished " + g->row.winner + " " + g->row.reason : "playing"));
        return line("##[SHOW] +OK");
    }
    if (cmd == "%%CHAT") {
        if (arg.empty())
            return line("##[ERROR] empty chat");
        svc_.chat(user_, arg);
        return line("##[CHAT] +OK");
    }
    if (cmd == "%%GAME" || cmd == "%%CHALLENGE") {
        if (arg.empty()) {
            svc_.csa_cancel(user_);
            return line("##[GAME] +OK");
        }
        if (state_ != State::Waiting)
            return line("##[ERROR] you are in a game");
        std::string name = arg.substr(0, arg.find(' '));
        std::string turn = arg.find(' ') == std::string::npos ? "*" : arg.substr(arg.find(' ') + 1);
        int color = turn == "+" ? 0 : turn == "-" ? 1 : -1;
        if (auto r = svc_.csa_wait(user_, name, color); !r)
            return line("##[ERROR] " + r.error());
        game_name_ = name;
        color_pref_ = color;
        return line("##[GAME] +OK");
    }
    if (cmd == "%%VERSION")
        return line(std::string("##[VERSION] Hisha ") + version() + " CSA server 1.2.1 x1"), line("##[VERSION] +OK");
    if (cmd == "%%HELP") {
        line("##[HELP] %%WHO %%LIST %%SHOW <game id> %%CHAT <text> %%GAME <game name> <+|-|*> %%GAME %%VERSION "
             "%%MONITOR2ON <game id> %%MONITOR2OFF <game id>");
        return line("##[HELP] +OK");
    }
    line("##[ERROR] unknown command " + cmd);
}

void CsaShell::send_summary(const LiveGame& g) {
    core::Color me = *g.color_of(user_);
    const auto& tc = g.row.tc;
    std::string s = "BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\nFormat:Shogi 1.0\n"
                    "Declaration:Jishogi 1.1\n";
    s += "Game_ID:" + game_id(g) + "\n";
    s += "Name+:" + g.row.black + "\nName-:" + g.row.white + "\n";
    s += std::string("Your_Turn:") + (me == core::BLACK ? "+" : "-") + "\n";
    s += "Rematch_On_Draw:NO\n";
    s += std::string("To_Move:") + (g.to_move() == core::BLACK ? "+" : "-") + "\n";
    s += "Max_Moves:" + std::to_string(svc_.max_moves(g.row)) + "\n";
    s += "BEGIN Time\nTime_Unit:1sec\n";
    s += "Total_Time:" + std::to_string(tc.main_ms / 1000) + "\n";
    s += "Byoyomi:" + std::to_string(tc.byoyomi_ms / 1000) + "\n";
    if (tc.increment_ms)
        s += "Increment:" + std::to_string(tc.increment_ms / 1000) + "\n";
    s += "Least_Time_Per_Move:0\nTime_Roundup:NO\nEND Time\n";
    // The start, then the moves played so far (a resumed game) with their times.
    std::string moves;
    int plies = 0;
    for (auto& m : g.log)
        if (!m.csa.empty() && m.csa[0] != '%') {
            moves += m.csa + ",T" + std::to_string(m.spent_ms / 1000) + "\n";
            ++plies;
        }
    auto start = plies ? service::Service::position_at(g.row, 0) : nullptr;
    s += "BEGIN Position\n" + position_block(start ? *start : g.game.position()) + moves
       + "END Position\nEND Game_Summary";
    line(s);
}

void CsaShell::send_end(const Event& e, const LiveGame& g) {
    core::Color me = *g.color_of(user_);
    bool won = e.winner == core::winner_of(me);
    bool draw = e.winner == core::Winner::Draw;
    std::string result = draw ? "#DRAW" : won ? "#WIN" : "#LOSE";
    switch (e.reason) {
    case core::EndReason::Resignation:
        line("%TORYO");
        line("#RESIGN");
        break;
    case core::EndReason::TimeUp: line("#TIME_UP"); break;
    case core::EndReason::IllegalMove:
        if (e.detail.starts_with("declaration failed"))
            line("%KACHI");
        line("#ILLEGAL_MOVE");
        break;
    case core::EndReason::Declaration:
        line("%KACHI");
        line("#JISHOGI");
        break;
    case core::EndReason::Sennichite: line("#SENNICHITE"); break;
    case core::EndReason::PerpetualCheck: line("#OUTE_SENNICHITE"); break;
    case core::EndReason::MoveLimit:
        line("#MAX_MOVES");
        result = "#CENSORED";
        break;
    case core::EndReason::Checkmate:
    case core::EndReason::NoLegalMoves: line("#CHECKMATE"); break;
    case core::EndReason::Abort: line("#CHUDAN"); return;
    case core::EndReason::Disconnect:
        // The opponent's connection was lost: the end shogi-server gives an abnormal end, but
        // without its %TORYO, a move the opponent never sent.
        line("#RESIGN");
        break;
    default: break;
    }
    line(result);
}

void CsaShell::deliver(const Event& e) {
    if (closed_ || user_.empty())
        return;
    switch (e.kind) {
    case EventKind::Chat: return line("##[CHAT][" + e.from + "] " + e.text);
    case EventKind::Announce:  // x1 clients read ## lines; a plain CSA client gets nothing it does not expect
        if (x1_)
            line("##[ANNOUNCE][" + e.from + "] " + e.text);
        return;
    case EventKind::Say:
        // SAY in a game (from the text protocol or the web page) reaches its CSA players in
        // shogi-server's x1 chat form; a plain CSA client gets nothing it does not expect.
        if (x1_ && e.game_id == game_ && service::name_key(e.from) != service::name_key(user_))
            return line("##[CHAT][" + e.from + "] " + e.text);
        return;
    case EventKind::GameOffered: {
        const LiveGame* g = svc_.game(e.game_id);
        if (!g || !g->color_of(user_) || state_ != State::Waiting)
            return;
        game_ = e.game_id;
        state_ = State::Offered;
        return send_summary(*g);
    }
    default: break;
    }
    if (e.game_id != 0 && e.game_id != game_ && monitoring_.contains(e.game_id))
        return monitor_event(e);
    if (e.game_id != game_ || game_ == 0)
        return;
    const LiveGame* g = svc_.game(game_);
    if (!g)
        return;
    switch (e.kind) {
    case EventKind::GameRejected: line("REJECT:" + game_id(*g) + " by " + e.from); return wait_again();
    case EventKind::GameStarted: state_ = State::Playing; return line("START:" + game_id(*g));
    case EventKind::Move:
        if (!e.facts || e.facts->record.csa.empty() || state_ == State::Resuming)
            return;  // a resuming player gets the moves after START
        line(e.facts->record.csa + ",T" + std::to_string(e.facts->record.spent_ms / 1000));
        if (!deferred_move_.empty() && my_turn())
            game_line(std::exchange(deferred_move_, {}));
        return;
    case EventKind::GameEnded:
        send_end(e, *g);
        deferred_move_.clear();
        game_ = 0;
        state_ = State::Waiting;  // a new game needs a new LOGIN (or %%GAME in x1 mode)
        return;
    default: return;
    }
}

// --- monitors (%%MONITOR2ON, as shogi-server's): the record so far, then the moves and the end

const LiveGame* CsaShell::game_named(const std::string& arg) {
    // A Game_ID (hisha-<id>+...) or the game's number.
    std::string id = arg.substr(0, arg.find(' '));
    if (id.starts_with("hisha-"))
        id = id.substr(6, id.find('+') == std::string::npos ? std::string::npos : id.find('+') - 6);
    if (id.empty() || id.size() > 18 || id.find_first_not_of("0123456789") != std::string::npos)
        return nullptr;
    std::int64_t gid = std::atoll(id.c_str());
    return gid > 0 ? svc_.game(gid) : nullptr;
}

void CsaShell::monitor_lines(const std::string& id, const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines)
        out += "##[MONITOR2][" + id + "] " + l + "\n";
    out += "##[MONITOR2][" + id + "] +OK";
    line(out);
}

void CsaShell::monitor_record(const LiveGame& g) {
    // The game's CSA record as the HTTP download gives it, comments included ('** 120 -3334FU).
    std::string text = notation::write_csa(game_record(g), notation::CsaVersion::V2_2);
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < text.size();) {
        std::size_t j = text.find('\n', i);
        if (j == std::string::npos)
            j = text.size();
        std::string l = text.substr(i, j - i);
        if (!l.empty() && l.back() == '\r')
            l.pop_back();
        if (!l.empty())
            lines.push_back(std::move(l));
        i = j + 1;
    }
    monitor_lines(game_id(g), lines);
}

void CsaShell::monitor_on(const std::string& arg) {
    const LiveGame* g = game_named(arg);
    if (!g)
        return line("##[ERROR] no such game: " + (arg.empty() ? std::string("(none given)") : arg));
    monitor_record(*g);
    if (g->finished())
        return;  // nothing more will come
    monitoring_[g->row.id] = game_id(*g);
    svc_.watch(user_, g->row.id, true);
}

void CsaShell::monitor_off(const std::string& arg) {
    const LiveGame* g = game_named(arg);
    if (!g || !monitoring_.erase(g->row.id))
        return line("##[ERROR] not monitoring " + (arg.empty() ? std::string("(none given)") : arg));
    if (g->row.id != game_)
        svc_.watch(user_, g->row.id, false);
    line("##[MONITOR2OFF] +OK");
}

void CsaShell::monitor_event(const Event& e) {
    auto it = monitoring_.find(e.game_id);
    const std::string& id = it->second;
    switch (e.kind) {
    case EventKind::Move: {
        if (!e.facts || e.facts->record.csa.empty())
            return;  // a handicap removal: the record's start already says it
        const service::MoveRecord& m = e.facts->record;
        std::vector<std::string> lines{m.csa, "T" + std::to_string(m.spent_ms / 1000)};
        if (!m.comment.empty())
            lines.push_back("'" + record_comment(m.comment));
        return monitor_lines(id, lines);
    }
    case EventKind::Undo:
        // CSA has no take-back: the record as it now stands, from its start again (V2.2 first).
        if (const LiveGame* g = svc_.game(e.game_id))
            monitor_record(*g);
        return;
    case EventKind::GameEnded: {
        // The end as shogi-server gives it to monitors; the record (%%SHOW, the download) has the rest.
        const char* end = "%CHUDAN";
        switch (e.reason) {
        case core::EndReason::Resignation: end = "%TORYO"; break;
        case core::EndReason::TimeUp: end = "#TIME_UP"; break;
        case core::EndReason::IllegalMove: end = "#ILLEGAL_MOVE"; break;
        case core::EndReason::Declaration: end = "%KACHI"; break;
        case core::EndReason::Sennichite: end = "#SENNICHITE"; break;
        case core::EndReason::PerpetualCheck: end = "#OUTE_SENNICHITE"; break;
        case core::EndReason::MoveLimit: end = "#MAX_MOVES"; break;
        case core::EndReason::Checkmate:
        case core::EndReason::NoLegalMoves: end = "#CHECKMATE"; break;
        default: break;  // aborted, disconnected, adjudicated, sealed: an interruption
        }
        monitor_lines(id, {end});
        monitoring_.erase(it);
        return;
    }
    default: return;
    }
}

}  // namespace hisha::server::proto
